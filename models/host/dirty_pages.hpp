// Dirty page-cache data and its writeback, as Linux's mm/page-writeback.c does it. A
// buffered write dirties pages and returns; the writer is throttled by
// balance_dirty_pages() once dirty + writeback memory passes the freerun point halfway
// between the background and the hard thresholds (vm.dirty_background_ratio/_bytes,
// vm.dirty_ratio/_bytes of the dirtyable memory): its dirtying rate is held to the
// measured writeback bandwidth scaled by a cubic position ratio (2 at freerun, 1 at the
// setpoint, 0 at the hard limit), and above the hard limit it waits. The flusher writes
// back in the background past the background threshold, and whatever is older than
// dirty_expire every dirty_writeback interval. fsync() writes back everything of its
// file that is dirty, waits for it, then flushes the device's volatile write cache.
// Writeback requests go to a sink (a block store along a route), so the model is tested
// against a mock sink.
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/block_storage.hpp"
#include "sim/core/component.hpp"
#include "sim/core/inline_function.hpp"
#include "sim/core/slot_pool.hpp"
#include "sim/core/stats.hpp"

namespace iowall {

struct DirtyPagesConfig {
  Bytes dirtyable_memory;       // free + reclaimable memory the ratios apply to
  double background_ratio = 0.10, ratio = 0.20;  // vm.dirty_background_ratio, vm.dirty_ratio (as fractions)
  Bytes background_bytes, bytes;                 // vm.dirty_background_bytes, vm.dirty_bytes: when set, win
  Time expire = Time(30'000'000'000'000);        // vm.dirty_expire_centisecs 3000
  Time writeback_interval = Time(5'000'000'000'000);  // vm.dirty_writeback_centisecs 500
  Bytes request = Bytes(1 << 20);   // one writeback request (the queue's max_sectors_kb)
  i64 depth = 32;                   // writeback requests in flight per device
  // The kernel's first guess of a device's writeback bandwidth, before it has measured
  // any (INIT_BW in mm/page-writeback.c: 100 MiB/s).
  double initial_bandwidth = 100.0 * 1024 * 1024;
};

// Where one file's dirty data is written back.
class WritebackSink {
public:
  using Done = InlineFunction<void()>;
  virtual ~WritebackSink() = default;
  // One writeback request of `bytes`; `done` when the device has it (in its cache).
  virtual void write_back(Bytes bytes, Done done) = 0;
  // Makes what the store holds durable (a flush of its volatile write cache; a file system
  // also commits the metadata `scope` asks for).
  virtual void flush(Done done, SyncScope scope) = 0;
};

class DirtyPages final : public Component {
public:
  using Done = InlineFunction<void()>;
  DirtyPages(SimContext& ctx, std::string name, const DirtyPagesConfig& config);

  // A writer dirtied `bytes` of `sink`'s file (the copy into the page cache is the
  // caller's); `resume` runs when balance_dirty_pages lets it go on.
  void dirtied(WritebackSink& sink, Bytes bytes, Done resume);
  // fsync() (scope file) or fdatasync() (data): every byte of `sink`'s file dirtied so far
  // written back, then the store flushed with that scope; `done` then.
  void sync(WritebackSink& sink, Done done, SyncScope scope);

  Bytes background_threshold() const { return bg_thresh_; }
  Bytes threshold() const { return thresh_; }
  Bytes dirty() const { return Bytes(dirty_); }           // dirty, not yet under writeback
  Bytes writeback() const { return Bytes(writeback_); }   // under writeback
  Time throttled() const { return throttled_; }           // writers' total pause
  std::string pending_work() const override;

private:
  struct File {
    WritebackSink* sink;
    i64 dirty = 0, in_flight = 0;
    i64 dirtied_total = 0, written_total = 0;  // bytes, for sync targets
    Time oldest{};                             // when the oldest dirty byte was dirtied
    struct Sync {
      i64 target;  // written_total that completes it
      Done done;
      SyncScope scope;
    };
    std::deque<Sync> syncs;
    bool flushing = false;
  };
  File& file(WritebackSink& sink);
  void kick(File& f);
  void completed(File& f, i64 bytes);
  void finish_syncs(File& f);
  bool background() const { return dirty_ + writeback_ > bg_thresh_.count(); }
  Time pause_for(i64 bytes) const;
  double bandwidth() const;
  void release_waiters();
  // Resumes the writer after `pause` (its callback waits in a pool: an event holds only
  // an index).
  void resume_after(Time pause, Done resume);
  void arm_expiry();

  DirtyPagesConfig config_;
  Bytes bg_thresh_, thresh_;
  std::vector<std::unique_ptr<File>> files_;
  i64 dirty_ = 0, writeback_ = 0;
  struct Waiter {
    Done resume;
    i64 bytes;
  };
  std::deque<Waiter> waiting_;  // writers above the hard limit
  SlotPool<Done> paused_;
  Time throttled_{};
  // Writeback bandwidth as the kernel estimates it: bytes completed over time spent
  // with writeback in flight.
  i64 completed_bytes_ = 0;
  Time busy_since_{}, busy_time_{};
  bool expiry_armed_ = false;
  EventId expiry_{};  // the flusher's next wake-up for expiring data, cancelled once nothing is dirty
  TimeWeighted dirty_gauge_, writeback_gauge_;
  Counter written_, throttle_ns_;
};

}  // namespace iowall
