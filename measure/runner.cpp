#include "measure/runner.hpp"

#include <algorithm>
#include <barrier>
#include <ctime>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>

#include "measure/cuda_runtime.hpp"
#include "measure/page_cache_stats.hpp"
#include "measure/page_residency.hpp"
#include "sim/core/interrupt.hpp"
#include "measure/worker.hpp"
#include "sim/core/error.hpp"

namespace iowall::measure {
namespace {

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

RepeatResult run_once(const MeasureOptions& o, const Target& t, int fd, const CudaRuntime* cuda,
                      const CuFileSession* cufile, int repeat) {
  RepeatResult rr;
  rr.repeat = repeat;
  rr.threads.resize(static_cast<std::size_t>(o.threads));
  // Whole I/Os split as evenly as possible; each thread's region follows the last one's.
  const std::int64_t total_ops = t.size.n / o.io_size.n;
  std::vector<std::int64_t> ops(o.threads);
  std::int64_t offset = 0;
  for (int i = 0; i < o.threads; ++i) {
    ops[i] = total_ops / o.threads + (i < total_ops % o.threads ? 1 : 0);
    auto& tr = rr.threads[i];
    tr.index = i;
    tr.region_offset = offset;
    tr.region_bytes = ops[i] * o.io_size.n;
    offset += tr.region_bytes;
  }

  std::atomic<bool> abort{false};
  std::atomic<std::uint64_t> t0{0};
  auto set_t0 = [&t0]() noexcept { t0.store(monotonic_ns()); };
  std::barrier sync(o.threads, set_t0);
  WorkerContext ctx;
  ctx.options = &o;
  ctx.fd = fd;
  ctx.cuda = cuda;
  ctx.cufile = cufile;
  ctx.abort = &abort;
  ctx.t0_ns = &t0;
  ctx.wait_for_start = [&sync] { sync.arrive_and_wait(); };

  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(o.threads));
  for (int i = 0; i < o.threads; ++i) {
    // Seeds differ per repeat so random offsets are not replayed from a warm cache.
    const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(repeat - 1) * 1'000'003ull;
    threads.emplace_back([&, i, seed] { run_worker(ctx, rr.threads[i], ops[i], seed); });
  }
  for (auto& th : threads) th.join();

  for (const auto& tr : rr.threads)
    if (!tr.error.empty()) throw RunError(fmt::format("thread {}: {}", tr.index, tr.error));
  rr.first_done_s = rr.threads.front().end_s;
  rr.last_done_s = 0;
  for (const auto& tr : rr.threads) {
    rr.first_done_s = std::min(rr.first_done_s, tr.end_s);
    rr.last_done_s = std::max(rr.last_done_s, tr.end_s);
  }
  return rr;
}

}  // namespace

RunInfo run_measurement(const MeasureOptions& o) {
  validate(o);
  RunInfo info;
  info.options = o;
  info.unix_time = static_cast<long>(std::time(nullptr));
  info.target = inspect_target(o);

  // A GPU type this machine cannot run is refused before anything is created.
  const CudaRuntime* cuda = nullptr;
  if (uses_gpu(o.xfer)) {
    cuda = &require_gpu(o.gpu, name(o.xfer));
    info.cuda_library = cuda->lib_name;
  }

  InterruptGuard guard;
  PreparedTarget prepared(o, info.target);
  auto interrupted = [&] {
    return Interrupted(fmt::format("interrupted{}", prepared.created() && !o.keep
                                                     ? fmt::format("; removed {}, which it had created", o.file)
                                                     : ""));
  };
  if (stop_requested()) throw interrupted();
  Fd fd{prepared.open(uses_odirect(o.xfer), o.durability.dsync)};

  std::unique_ptr<CuFileSession> cufile;
  if (uses_cufile(o.xfer)) {
    cufile = std::make_unique<CuFileSession>(fd.fd, name(o.xfer), o.xfer == TransferType::gpu_batch);
    info.cufile = cufile->compat();
    info.cufile_library = cufile->api().lib_name;
  }
  const std::optional<DiskWatch> disk = DiskWatch::of(fd.fd);
  info.vm = read_vm_dirty_settings();
  for (int r = 1; r <= o.repeat; ++r) {
    // Only the cache's copy is dropped (the kernel writes dirty pages back first); the data is untouched.
    if (o.invalidate) ::posix_fadvise(fd.fd, 0, 0, POSIX_FADV_DONTNEED);
    const std::optional<double> resident = page_cache_resident(fd.fd, info.target.size.n);
    const DiskCounters disk_before = disk ? disk->read() : DiskCounters{};
    const std::uint64_t start_ns = monotonic_ns();
    DirtySampler dirty;  // every 100 ms, for the peak of dirty and writeback pages
    info.repeats.push_back(run_once(o, info.target, fd.fd, cuda, cufile.get(), r));
    info.repeats.back().page_cache = dirty.stop();
    info.repeats.back().page_cache_resident_at_start = resident;
    if (disk) info.repeats.back().disk = disk->since(disk_before, static_cast<double>(monotonic_ns() - start_ns) * 1e-9);
    if (stop_requested()) throw interrupted();
  }
  return info;
}

}  // namespace iowall::measure
