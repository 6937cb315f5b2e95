// A workload drives one data path in a simulation: it issues I/Os (and whatever else it
// does between them: copies, passes over the bytes, syncs) for each target, and says when
// each target's job finished. The scenario names it by "kind"; each implementation
// registers its kinds next to its class with IOWALL_REGISTER_WORKLOAD (the plain I/O
// kinds: sim/run/io_workload.hpp; checkpoints: models/workload/).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/core/histogram.hpp"
#include "sim/core/stats.hpp"
#include "sim/run/data_path.hpp"

namespace iowall {

// One job of the workload (a target's threads, or a checkpoint's rank).
struct JobResult {
  std::string target;
  Bytes bytes;
  std::uint64_t ios = 0;
  Time first_done, last_done;  // of its threads; with durability asked for, when durable
  LogLinearHistogram latency_ns;
  Time writes_done;  // writes: the last write completed (before any final sync)
};

// How long each "/busy" gauge of a simulation has been busy up to a moment (the gauge's
// time integral, in unit-picoseconds, in the order the registry lists them; gauges
// registered later count from zero). Two snapshots give each resource's utilization over
// the span between them.
using BusySnapshot = std::vector<double>;
BusySnapshot busy_snapshot(const StatRegistry& stats, Time now);

// One phase of a job (a checkpoint's d2h copy, serialize + write, fsync), from its start
// to its end, and the CPU time the job's own thread spent in it: a phase that keeps one
// thread busy all along is bound by that thread, whatever else is busy.
struct PhaseSpan {
  std::string name;
  Time start, end;
  std::string thread;  // the thread's name, for "limited by"
  Time thread_busy;
  BusySnapshot busy_start, busy_end;  // the resources at the start and the end
};

// What a workload is built from: its simulation, topology and path, and where its JSON
// sits for errors.
struct WorkloadEnv {
  SimContext& ctx;
  Topology& topology;
  DataPath& path;
  PathEnv& paths;       // routes and the mover the path uses, for the workload's own moves
  std::string file;     // scenario file
  std::string pointer;  // "/workload"
};

class Workload {
public:
  virtual ~Workload() = default;
  virtual void start() = 0;
  // Unfinished work, for the run's error; empty when done.
  virtual std::string pending() const = 0;
  virtual const std::vector<JobResult>& results() const = 0;
  // The phases of each job, in order (empty: one phase, the I/O).
  virtual std::vector<std::vector<PhaseSpan>> phases() const { return {}; }
  // Whether the results report the write phase and the time until durable (a write
  // workload whose scenario says "durability"); `durable`: whether the writes are made
  // durable at all ("none" leaves them in the page cache or the drive's cache).
  virtual bool reports_durability() const { return false; }
  virtual bool durable() const { return false; }
  // Bytes all jobs move in all, and bytes moved so far (a progress display; 0: unknown).
  virtual std::int64_t total_bytes() const { return 0; }
  virtual std::int64_t done_bytes() const { return 0; }
};

}  // namespace iowall
