// The I/O workload of a scenario, in gdsio's terms: for each target (GPU), `threads`
// workers each own an equal region of `size` and keep `qd` I/Os of `io_size` in
// flight, sequential or random, reads or writes, striped over the storage devices.
// Each target is one job; the slowest job decides when the workload is done.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/core/histogram.hpp"
#include "sim/run/data_path.hpp"

namespace iowall {

struct WorkloadConfig {
  std::string kind;  // sequential_read, random_read, sequential_write, random_write
  Bytes size, io_size;
  i64 threads = 1, qd = 1;
  // Where the queue depth applies: each thread keeps `qd` I/Os in flight over its storage
  // devices together (gdsio, fio's iodepth on one file), or `qd` on each device (SPDK's
  // perf and fio with one job per device: -q is per namespace).
  bool qd_per_device = false;
  Bytes misalign;  // added to every file offset (an unaligned file layout)
  std::vector<std::string> targets;  // GPU ids (or dram ids for cpu_only); "all GPUs" when empty
  std::vector<std::string> storage;  // block storage ids; "local": the nearest drives of each target
  bool write() const { return kind.find("write") != std::string::npos; }
  bool random() const { return kind.rfind("random", 0) == 0; }
};

WorkloadConfig read_workload(const Params& p);

struct JobResult {
  std::string target;
  Bytes bytes;
  std::uint64_t ios = 0;
  Time first_done, last_done;  // of its threads
  LogLinearHistogram latency_ns;
};

class IoWorkload {
public:
  IoWorkload(const WorkloadConfig& config, Topology& topology, DataPath& path, SimContext& ctx,
             const std::string& file, const std::string& pointer);
  void start();
  const std::vector<JobResult>& results() const { return results_; }
  std::string pending() const;
  // Bytes all jobs move in all, and bytes moved so far (for a progress display).
  std::int64_t total_bytes() const;
  std::int64_t done_bytes() const;

private:
  struct Thread {
    int job;
    Bytes region_start, region_size, next_offset, issued, completed;
    int outstanding = 0;
    std::uint64_t io_counter = 0;
    std::vector<i64> next_on_device;  // qd per device: the next sequential I/O index on each
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

  WorkloadConfig config_;
  DataPath& path_;
  SimContext& ctx_;
  std::vector<Device*> targets_;
  std::vector<std::vector<BlockStorage*>> storage_;  // per job
  std::vector<Thread> threads_;
  std::vector<JobResult> results_;
  std::vector<int> threads_left_;
  Rng rng_;
};

}  // namespace iowall
