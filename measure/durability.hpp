// How one measuring thread makes its writes durable, as fio's options do: an fsync (or
// fdatasync) after every N writes issued, once the writes in flight have completed; one
// fsync after the thread's last write (end_fsync), inside the thread's timed run; or
// nothing to do when the target was opened with O_DSYNC (every write returns durable).
// It records each sync's latency and when the thread's writes were all durable.
#pragma once
#include <cstdint>

#include "measure/options.hpp"
#include "measure/results.hpp"

namespace iowall::measure {

class SyncPolicy {
public:
  // `t0_ns`: the common start of the threads (monotonic_ns), to which times are relative.
  SyncPolicy(const Durability& d, int fd, ThreadResult& out, std::uint64_t t0_ns);

  // A write was handed to the kernel (or to cuFile) at `now_ns`.
  void write_issued(std::uint64_t now_ns);
  // A write completed at `now_ns`.
  void write_completed(std::uint64_t now_ns);
  // N writes were issued since the last sync: issue nothing more until the writes in
  // flight are done and sync() has run.
  bool due() const { return every_ > 0 && since_sync_ >= every_; }
  // Writes that may still be issued before the next sync is due (a batch's limit); a large
  // number when no periodic sync is asked for.
  std::int64_t writes_before_due() const { return every_ > 0 ? every_ - since_sync_ : INT64_MAX; }
  // The periodic sync now (fdatasync for --fdatasync, else fsync), or an fsync when `full`;
  // timed; throws RunError if it fails.
  void sync(bool full = false);
  // After the thread's last operation: end_fsync, then sets out.durable_s where all of the
  // thread's writes are durable (null where some were never synced).
  void finish();

private:
  double rel_s(std::uint64_t ns) const;
  const Durability& d_;
  int fd_;
  ThreadResult& out_;
  std::uint64_t t0_;
  std::int64_t every_;
  std::int64_t since_sync_ = 0;       // writes issued since the last sync
  std::uint64_t last_sync_end_ = 0;   // 0: none yet
};

}  // namespace iowall::measure
