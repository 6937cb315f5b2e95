#include "models/storage/virtio_blk.hpp"

#include <algorithm>
#include <cmath>

#include "models/ssd/read_service.hpp"

#include <fmt/format.h>

#include "sim/config/registry.hpp"
#include "sim/core/error.hpp"

namespace iowall {

VirtioBlk::VirtioBlk(const Params& p, SimContext& ctx)
    : StackedStore(p, ctx), sync_(emulation == "sync"), per_pass_(signal == "per_pass" && emulation == "sync") {
  register_stat("ios", "I/Os", "reads and writes the guest sent", ios_);
  register_stat("requests", "requests", "requests the device thread took (an I/O splits at max_request; flushes too)",
                requests_taken_);
  register_stat("notifications", "exits", "guest notifications that woke the idle device thread (VM exits)",
                notifications_);
  register_stat("flushes", "flushes", "flush requests from the guest", flushes_);
  register_stat("written_back", "B", "bytes the host wrote back from its page cache at flushes", written_back_);
  register_stat("host_cache_reads", "requests",
                "reads served from the host's page cache: bytes written and not yet written back", host_hits_);
  register_stat("device_thread/busy", "threads", "the host's device thread busy with a request", thread_, 1);
}

void VirtioBlk::find_devices(const std::function<Device*(const std::string&)>& find) {
  const Params& p = params();
  const BlockLimits& s = find_single_member(find, "device", device).limits();
  if (!max_request.is_positive() || !max_request.is_multiple_of(s.lba_size))
    p.fail("max_request", fmt::format("{} is not a positive multiple of {}'s logical block ({})", to_string(max_request),
                                      device, to_string(s.lba_size)));
  BlockLimits l = s;
  l.max_transfer = max_request;
  l.queue_depth = queue_size;
  set_limits(l);
  set_place(store().place());
}

double VirtioBlk::cold_share(Bytes footprint) const {
  return cold_copy_share(static_cast<double>(footprint.count()), static_cast<double>(copy_cache.count()));
}

void VirtioBlk::split(bool write, i64 at, i64 end, const Fanout& f, RouteMover& mover, Done done, const BlockIo& io) {
  // At most max_request bytes and max_segments segments a request, whole logical blocks.
  i64 m = max_request.count();
  if (io.segment.is_positive()) {
    const i64 lba = store().limits().lba_size.count();
    m = std::min(m, std::max(lba, io.segment.count() * max_segments / lba * lba));
  }
  const std::uint32_t id = expect(done, ceil_div(Bytes(end - at), Bytes(m)));
  for (; at < end; at += m) {
    Request r;
    r.kind = write ? Kind::write : Kind::read;
    r.size = Bytes(std::min(m, end - at));
    r.offset = Bytes(at);
    r.fanout = &f;
    r.mover = &mover;
    r.io = io;
    r.id = id;
    post(r);
  }
}

void VirtioBlk::flush(Done done, SyncScope scope) {
  flushes_.add();
  Request r;
  r.kind = Kind::flush;
  r.scope = scope;
  r.id = expect(done, 1);
  post(r);
}

void VirtioBlk::post(Request r) {
  const bool was_empty = ring_.empty();
  ring_.push_back(requests_.acquire(r));
  // EVENT_IDX: the device asks for a notification only when its thread found the ring
  // empty and waits; a thread at work (or waking, or waiting on its host calls with more
  // requests queued) finds this one by itself.
  const bool waits = !thread_busy_ && !waking_ && (sync_ || host_in_flight_ < async_depth);
  if (!(was_empty && waits)) return;
  notifications_.add();
  waking_ = true;
  ctx().in(notify_latency, [this] {
    waking_ = false;
    serve_next();
  });
}

void VirtioBlk::serve_next() {
  if (thread_busy_ || ring_.empty()) return;
  if (!sync_ && host_in_flight_ >= async_depth) return;
  const std::uint32_t r = ring_.front();
  ring_.pop_front();
  requests_taken_.add();
  set_thread_busy(true);
  Request& q = requests_[r];
  Time work = request_cost;
  if (q.kind != Kind::flush) work += segment_cost * (segments(q.size, q.io.segment) - 1);
  // The thread copies a write into the host's page cache, or a read out of it: decided
  // now, as the thread takes the request (a write-back may clean the bytes before its call).
  q.in_host_memory = served_from_host_memory(q);
  if (q.in_host_memory) work += transfer_time(q.size, host_copy_bandwidth);
  // A read's data copied into guest memory the host's cache does not hold: its lines
  // fetched first.
  if (q.kind == Kind::read && !q.in_host_memory && copy_cache.is_positive()) {
    const auto cold = static_cast<i64>(std::llround(static_cast<double>(q.size.count()) * cold_share(q.io.footprint)));
    work += transfer_time(Bytes(cold), cold_copy_bandwidth);
  }
  ctx().in(work, [this, r] {
    if (!sync_) {
      // io_uring: the call goes out and the thread takes the next request.
      set_thread_busy(false);
      ++host_in_flight_;
    }
    host_call(r);
    serve_next();
  });
}

void VirtioBlk::host_call(std::uint32_t r) {
  const Request q = requests_[r];
  switch (q.kind) {
    case Kind::read:
      if (q.in_host_memory) {
        // Copied out of the host's page cache already (the thread's time): no store I/O.
        host_hits_.add();
        host_done(r);
        return;
      }
      send_to_member(false, 0, q.size, q.offset, *q.fanout, *q.mover, [this, r] { host_done(r); }, q.io);
      return;
    case Kind::write:
      if (!q.in_host_memory) {
        send_to_member(true, 0, q.size, q.offset, *q.fanout, *q.mover, [this, r] { host_done(r); }, q.io);
        return;
      }
      // Copied into the host's page cache already (the thread's time): dirty there.
      dirty_.add(q.offset.count(), (q.offset + q.size).count());
      host_done(r);
      return;
    case Kind::flush:
      if (host_cache == "unsafe") {
        host_done(r);
        return;
      }
      // fdatasync of the image: what the host holds dirty first, then the store's flush.
      write_back([this, r] {
        ctx().in(host_flush_cost, [this, r] { store().flush([this, r] { host_done(r); }, requests_[r].scope); });
      });
      return;
  }
}

void VirtioBlk::host_done(std::uint32_t r) {
  if (sync_)
    set_thread_busy(false);
  else
    --host_in_flight_;
  const std::uint32_t id = requests_[r].id;
  requests_.release(r);
  if (per_pass_)
    pass_done_.push_back(id);
  else
    ctx().in(interrupt_latency, [this, id] { piece_done(id); });
  serve_next();
  // per_pass: the pass goes on while the thread has the next request on the ring.
  if (!per_pass_ || thread_busy_ || waking_) return;
  // The ring is empty: the pass ends with one interrupt for everything it served. The
  // interrupts arrive in the order they were signalled (one latency for all).
  signalled_.emplace_back();
  signalled_.back().swap(pass_done_);
  ctx().in(interrupt_latency, [this] {
    const std::vector<std::uint32_t> done = std::move(signalled_.front());
    signalled_.pop_front();
    for (const std::uint32_t i : done) piece_done(i);
  });
}

void VirtioBlk::write_back(Done then) {
  after_write_back_.push_back(then);
  if (write_back_left_ == 0) write_back_round();  // else it waits for the round under way, then one more
}

void VirtioBlk::write_back_round() {
  if (dirty_.empty() || !wrote()) {
    std::vector<Done> ready;
    ready.swap(after_write_back_);
    for (const Done& d : ready) d();
    return;
  }
  // Every dirty range, in requests of at most the store's largest command; what is
  // dirtied meanwhile goes in the next round.
  const Bytes limit = store().limits().max_transfer.is_positive() ? store().limits().max_transfer : max_request;
  const i64 piece = limit.count();
  const auto ranges = dirty_.ranges();
  written_back_.add(dirty_.total().count());
  dirty_.clear();
  for (const auto& [lo, hi] : ranges) write_back_left_ += ceil_div(Bytes(hi - lo), limit);
  for (const auto& [lo, hi] : ranges)
    for (i64 at = lo; at < hi; at += piece)
      write_own(0, Bytes(std::min(piece, hi - at)), Bytes(at), [this] {
        if (--write_back_left_ == 0) write_back_round();
      });
}

bool VirtioBlk::served_from_host_memory(const Request& q) const {
  if (!caches_writes()) return false;
  if (q.kind == Kind::write) return true;
  // A read of bytes the host still holds dirty (written and not yet written back).
  return q.kind == Kind::read && dirty_.covers(q.offset.count(), (q.offset + q.size).count());
}

void VirtioBlk::set_thread_busy(bool busy) {
  if (busy == thread_busy_) return;
  thread_busy_ = busy;
  thread_.add(ctx().now(), busy ? 1 : -1);
}

std::string VirtioBlk::pending_work() const {
  if (in_flight() == 0) return {};
  return fmt::format("{} I/O(s) or flush(es) in the virtqueue or the host ({} not taken by the device thread)",
                     in_flight(), ring_.size());
}

IOWALL_REGISTER_DEVICE(VirtioBlk, "virtio_blk",
                       "a virtual machine's virtio block device over the host storage backing it: the device "
                       "thread, notifications, interrupts and the host's cache mode");

}  // namespace iowall
