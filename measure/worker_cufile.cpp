// The cuFile transfer loops of a measuring thread: gpu_direct calls cuFileRead and
// cuFileWrite one at a time; gpu_batch submits up to --qd operations with
// cuFileBatchIOSubmit and polls their status. A periodic sync (--fsync N) waits for the
// writes before it, as fio's does.
#include <cerrno>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "measure/worker_loop.hpp"
#include "sim/core/error.hpp"

namespace iowall::measure {

void run_cufile_sync(CuFileLoop& l) {
  const CuFileApi& api = l.ctx.cufile->api();
  const cufile::Handle fh = l.ctx.cufile->handle();
  const auto io = static_cast<std::size_t>(l.io);
  Op op;
  while (l.feed.next(op)) {
    const std::uint64_t t = monotonic_ns();
    if (op.write) l.sync.write_issued(t);
    errno = 0;
    const ssize_t n = op.write ? api.Write(fh, l.device, io, op.offset, 0) : api.Read(fh, l.device, io, op.offset, 0);
    const std::uint64_t now = monotonic_ns();
    if (n < 0) io_failed(op.write, l.io, op.offset, cufile_io_error_text(n, errno));
    if (n != l.io) io_failed(op.write, l.io, op.offset, fmt::format("only {} bytes moved", n));
    record(l.out, op.write, now - t, l.io);
    if (op.write) {
      l.sync.write_completed(now);
      if (l.sync.due()) l.sync.sync();
    }
  }
}

// Each operation is timed from the submission to when a status poll first sees it complete.
void run_cufile_batch(CuFileLoop& l) {
  const CuFileApi& api = l.ctx.cufile->api();
  cufile::BatchHandle batch = nullptr;
  const cufile::Error e = api.BatchIOSetUp(&batch, static_cast<unsigned>(l.slots));
  if (e.err != cufile::kSuccess)
    throw RunError(fmt::format("cuFileBatchIOSetUp({}) failed: {} (cuFile error {})", l.slots,
                               cufile_error_text(e.err), e.err));
  struct Destroy {
    const CuFileApi& api;
    cufile::BatchHandle b;
    ~Destroy() { api.BatchIODestroy(b); }
  } destroy{api, batch};
  std::vector<cufile::IOParams> params(l.slots);
  std::vector<cufile::IOEvents> events(l.slots);
  std::vector<Op> ops(l.slots);
  std::optional<Op> held;  // a write that must wait for the sync after this batch
  bool more = true;
  while (true) {
    unsigned k = 0;
    const std::int64_t room = l.sync.writes_before_due();
    std::int64_t writes = 0;
    while (k < static_cast<unsigned>(l.slots)) {
      Op op;
      if (held) {
        op = *held;
        held.reset();
      } else if (!more || !(more = l.feed.next(op))) {
        break;
      }
      if (op.write && writes >= room) {
        held = op;
        break;
      }
      writes += op.write ? 1 : 0;
      auto& p = params[k];
      p = {};
      p.mode = 1;  // CUFILE_BATCH
      p.u.batch.devPtr_base = l.device;
      p.u.batch.file_offset = op.offset;
      p.u.batch.devPtr_offset = static_cast<off_t>(k) * l.io;
      p.u.batch.size = static_cast<std::size_t>(l.io);
      p.fh = l.ctx.cufile->handle();
      p.opcode = op.write ? cufile::kWrite : cufile::kRead;
      p.cookie = reinterpret_cast<void*>(static_cast<std::uintptr_t>(k));
      ops[k++] = op;
    }
    if (k == 0) break;
    const std::uint64_t t = monotonic_ns();
    for (unsigned i = 0; i < k; ++i)
      if (ops[i].write) l.sync.write_issued(t);
    const cufile::Error se = api.BatchIOSubmit(batch, k, params.data(), 0);
    if (se.err != cufile::kSuccess)
      throw RunError(fmt::format("cuFileBatchIOSubmit failed: {} (cuFile error {})", cufile_error_text(se.err), se.err));
    unsigned left = k;
    while (left > 0) {
      unsigned nr = left;
      timespec timeout{1, 0};
      const cufile::Error ge = api.BatchIOGetStatus(batch, 1, &nr, events.data(), &timeout);
      if (ge.err != cufile::kSuccess)
        throw RunError(fmt::format("cuFileBatchIOGetStatus failed: {} (cuFile error {})", cufile_error_text(ge.err), ge.err));
      const std::uint64_t now = monotonic_ns();
      for (unsigned i = 0; i < nr; ++i) {
        const auto idx = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(events[i].cookie));
        if (idx >= k) throw RunError("cuFileBatchIOGetStatus returned an unknown operation");
        const Op& o = ops[idx];
        if (events[i].status != cufile::kComplete)
          io_failed(o.write, l.io, o.offset, fmt::format("batch status {} (result {})", events[i].status,
                                                          static_cast<std::int64_t>(events[i].ret)));
        if (static_cast<std::int64_t>(events[i].ret) != l.io)
          io_failed(o.write, l.io, o.offset, fmt::format("only {} bytes moved", static_cast<std::int64_t>(events[i].ret)));
        record(l.out, o.write, now - t, l.io);
        if (o.write) l.sync.write_completed(now);
      }
      left -= nr;  // an interrupt waits for the batch in flight: its buffers are in use
    }
    if (l.sync.due()) l.sync.sync();
  }
}

}  // namespace iowall::measure
