// A run's result as typed values: what each data path achieved (throughput, latency
// percentiles, CPU cores busy, done times, what limited it, each job) and its statistics.
// The runner fills it once; run_result_json.hpp writes it as the result JSON and reads
// such a file back; the text table, CSV, charts and HTML report read these structs.
// A sweep's result is a list of these, one per point.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/stats_result.hpp"

namespace iowall {

// The busiest resource of a run: the one whose time-weighted utilization (0..1) is highest.
struct LimitedBy {
  std::string resource;
  double utilization = 0;
  bool operator==(const LimitedBy&) const = default;
};

// One job of the workload (a target's threads): its bytes and when its threads finished.
struct JobSummary {
  std::string target;
  std::int64_t bytes = 0;
  double throughput_GBps = 0;
  double first_done_s = 0, last_done_s = 0;
  bool operator==(const JobSummary&) const = default;
};

// One phase of a workload's jobs (a checkpoint's d2h, serialize_write, fsync; read,
// h2d): the slowest job's time in it, when the phase ran (first start, last end), and
// what bound it over that span.
struct PhaseMetrics {
  std::string name;
  double seconds = 0;            // the longest job's time in the phase
  double start_s = 0, end_s = 0;  // the earliest start and latest end over jobs
  std::optional<LimitedBy> limited_by;
  bool operator==(const PhaseMetrics&) const = default;
};

// A data path's figures, aggregated over jobs: total bytes over the slowest job's time.
// Rounded as written (GB/s to 4 decimals, latencies to 3, seconds to 9).
struct PathMetrics {
  double throughput_GBps = 0;
  double iops = 0;
  double latency_mean_us = 0, latency_p50_us = 0, latency_p99_us = 0, latency_p999_us = 0;
  double cpu_cores_busy = 0;
  std::optional<double> iops_per_cpu_core;  // when any CPU core was busy
  std::int64_t bytes = 0;
  std::uint64_t ios = 0;
  double first_done_s = 0, last_done_s = 0;
  std::uint64_t events = 0;
  std::optional<LimitedBy> limited_by;
  std::vector<JobSummary> jobs;
  std::string note;  // the data path's remark on how it ran; empty: none
  // Writes whose workload says how durable they must be: when the last write completed,
  // and when the last job's writes were durable (last_done then; none: never made durable).
  std::optional<double> write_phase_s;
  std::optional<double> durable_s;
  std::vector<PhaseMetrics> phases;  // empty for a workload of one phase
  bool operator==(const PathMetrics&) const = default;
};

struct PathResult {
  std::string label;  // the data path as the scenario names it
  PathMetrics metrics;
  StatsResult stats;
  bool operator==(const PathResult&) const = default;
};

// Device counts by model and the number of links, for the report's topology line.
struct TopologySummary {
  std::size_t device_count = 0, links = 0;
  std::map<std::string, std::size_t> devices;  // model -> count
  bool operator==(const TopologySummary&) const = default;
};

// The version a result names as its writer.
inline constexpr const char* kIowallVersion = "0.1.0";

struct RunResult {
  std::optional<std::string> iowall_version;  // absent only in files written by hand
  std::string scenario, description;
  std::string topology;                           // the topology's name
  std::optional<TopologySummary> topology_summary;
  std::optional<std::uint64_t> seed;
  std::string fidelity;
  nlohmann::json workload = nlohmann::json::object();  // the scenario's workload, as given
  std::vector<PathResult> paths;                       // in the scenario's order

  // The path labelled `label`, or nullptr.
  const PathResult* path(const std::string& label) const;
  bool operator==(const RunResult&) const = default;
};

// One point of a sweep: its index in the whole sweep, the axis values it set
// ({pointer: value}, as given) and its run.
struct SweepPointResult {
  std::size_t index = 0;
  nlohmann::json values = nlohmann::json::object();
  RunResult result;
  bool operator==(const SweepPointResult&) const = default;
};

struct SweepResult {
  std::optional<std::string> iowall_version;
  std::string scenario;
  std::vector<SweepPointResult> points;  // in index order
  // Set for one shard of a sweep ("i/N"), with the number of points of the whole sweep.
  std::optional<std::string> shard;
  std::optional<std::size_t> sweep_points;
  bool operator==(const SweepResult&) const = default;
};

}  // namespace iowall
