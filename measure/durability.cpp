#include "measure/durability.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

#include <fmt/format.h>

#include "measure/worker.hpp"
#include "sim/core/error.hpp"

namespace iowall::measure {

SyncPolicy::SyncPolicy(const Durability& d, int fd, ThreadResult& out, std::uint64_t t0_ns)
    : d_(d), fd_(fd), out_(out), t0_(t0_ns), every_(d.every()) {}

double SyncPolicy::rel_s(std::uint64_t ns) const { return static_cast<double>(ns - t0_) / 1e9; }

void SyncPolicy::write_issued(std::uint64_t now_ns) {
  if (!out_.first_write_s) out_.first_write_s = rel_s(now_ns);
  ++since_sync_;
}

void SyncPolicy::write_completed(std::uint64_t now_ns) {
  out_.writes_done_s = std::max(out_.writes_done_s.value_or(0.0), rel_s(now_ns));
}

void SyncPolicy::sync(bool full) {
  const bool data_only = !full && !d_.fsync_every && d_.fdatasync_every;
  const std::uint64_t t = monotonic_ns();
  int rc;
  do {
    rc = data_only ? ::fdatasync(fd_) : ::fsync(fd_);
  } while (rc != 0 && errno == EINTR);
  const std::uint64_t now = monotonic_ns();
  if (rc != 0) throw RunError(fmt::format("{} failed: {}", data_only ? "fdatasync" : "fsync", std::strerror(errno)));
  out_.sync.clat_ns.add(now - t);
  ++out_.sync.ops;
  since_sync_ = 0;
  last_sync_end_ = now;
}

void SyncPolicy::finish() {
  if (!out_.first_write_s) return;  // no writes: nothing to make durable
  if (d_.end_fsync) sync(true);  // fio's end_fsync: once after the last write, whatever came before
  if (d_.dsync) {
    // Every write returned durable; a sync after the last one moves the point later.
    const double at = std::max(out_.writes_done_s.value_or(0.0), last_sync_end_ ? rel_s(last_sync_end_) : 0.0);
    out_.durable_s = at;
  } else if (last_sync_end_ != 0 && since_sync_ == 0) {
    out_.durable_s = rel_s(last_sync_end_);
  } else {
    out_.unsynced_writes = since_sync_;  // issued after the last sync (or with none asked for)
  }
}

}  // namespace iowall::measure
