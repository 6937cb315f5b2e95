// The I/O workload of a scenario, in gdsio's terms: for each target (GPU), `threads`
// workers each own an equal region of `size` and keep `qd` I/Os of `io_size` in
// flight, sequential or random, reads or writes, striped over the storage devices; a
// thread replaces each I/O as it completes, or reaps batch_complete of them first.
// Each target is one job; the slowest job decides when the workload is done. Writes are
// made durable as "durability" asks: none (left where the write put them), fsync_end
// (each thread fsyncs after its last write, fio's end_fsync), fsync_each (an fsync after
// every fsync_every writes, fio's fsync=N) or o_dsync (every write returns durable).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/core/histogram.hpp"
#include "sim/run/data_path.hpp"
#include "sim/run/workload.hpp"

namespace iowall {

struct WorkloadConfig {
  std::string kind;  // sequential_read, random_read, sequential_write, random_write
  Bytes size, io_size;
  i64 threads = 1, qd = 1;
  // Where the queue depth applies: each thread keeps `qd` I/Os in flight over its storage
  // devices together (gdsio, fio's iodepth on one file), or `qd` on each device (SPDK's
  // perf and fio with one job per device: -q is per namespace).
  bool qd_per_device = false;
  // Completions a thread reaps before it submits again (1: each I/O is replaced as it
  // completes; n: the thread waits for n, as t/io_uring and fio's
  // iodepth_batch_complete_min do, then refills its queue).
  i64 batch_complete = 1;
  Bytes misalign;  // added to every file offset (an unaligned file layout)
  std::vector<std::string> targets;  // GPU ids (or dram ids for cpu_only); "all GPUs" when empty
  std::vector<std::string> storage;  // block storage ids; "local": the nearest drives of each target
  enum class Durability { none, fsync_end, fsync_each, o_dsync };
  Durability durability = Durability::none;
  bool durability_given = false;  // the scenario says "durability": results report it
  i64 fsync_every = 1;            // fsync_each: writes per fsync
  bool write() const { return kind.find("write") != std::string::npos; }
  bool random() const { return kind.rfind("random", 0) == 0; }
};

WorkloadConfig read_workload(const Params& p);

class IoWorkload final : public Workload {
public:
  IoWorkload(const Params& p, WorkloadEnv& env);
  IoWorkload(const WorkloadConfig& config, Topology& topology, DataPath& path, SimContext& ctx,
             const std::string& file, const std::string& pointer);
  void start() override;
  const std::vector<JobResult>& results() const override { return results_; }
  std::string pending() const override;
  bool reports_durability() const override { return config_.write() && config_.durability_given; }
  bool durable() const override { return config_.durability != WorkloadConfig::Durability::none; }
  // Writes made durable at the end (fsync_end, fsync_each): "write" until the last write
  // completed, then "fsync" until the last thread's final fsync returned (where writeback
  // and the drive's flush show); none otherwise.
  std::vector<std::vector<PhaseSpan>> phases() const override;
  Window io_window() const override;
  std::int64_t total_bytes() const override;
  std::int64_t done_bytes() const override;

private:
  struct Thread {
    int job;
    Bytes region_start, region_size, next_offset, issued, completed;
    int outstanding = 0;
    std::uint64_t io_counter = 0;
    std::vector<i64> next_on_device{};  // qd per device: the next sequential I/O index on each
    i64 unsynced = 0;                 // fsync_each: writes issued since the last fsync
    i64 reaped = 0;                   // batch_complete: completions since the queue was last filled
    bool syncing = false;
  };
  struct Issued {
    std::uint32_t thread;
    Time start;
  };
  void issue(std::uint32_t thread);
  // qd per device: the next I/O of `thread` on its `device`-th storage device.
  void issue_on(std::uint32_t thread, std::size_t device);
  void submit(std::uint32_t thread, Bytes offset, std::size_t device);
  void completed(std::uint32_t thread, std::size_t device, Time started);
  // Issues what the thread's queue depth allows (per device or over its devices).
  void refill(std::uint32_t thread);
  // fsync of every drive the thread wrote, from drive `device` on; then `then_done`
  // ends the thread (fsync_end) or lets it go on (fsync_each).
  void sync_from(std::uint32_t thread, std::size_t device, bool then_done);
  void thread_done(std::uint32_t thread);

  WorkloadConfig config_;
  DataPath& path_;
  std::vector<BusySnapshot> busy_at_writes_, busy_at_done_;  // per job, with durability reported
  SimContext& ctx_;
  std::vector<Device*> targets_;
  std::vector<std::vector<BlockStorage*>> storage_;  // per job
  std::vector<Thread> threads_;
  std::vector<JobResult> results_;
  std::vector<int> threads_left_;
  Bytes buffers_{};  // the host buffers every thread's I/Os cycle through (IoRequest::buffer_footprint)
  Rng rng_;
};

}  // namespace iowall
