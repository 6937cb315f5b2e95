#include "sim/run/runner.hpp"

#include <fmt/format.h>

#include "sim/config/topology.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/run/data_path.hpp"
#include "sim/run/io_workload.hpp"
#include "sim/run/path_simulation.hpp"
#include "sim/report/progress.hpp"

namespace iowall {
namespace {

double round_to(double v, int digits) {
  const double f = std::pow(10.0, digits);
  return std::round(v * f) / f;
}

}  // namespace

std::optional<LimitedBy> limiting_resource(const StatRegistry& stats, Time end) {
  const StatEntry* best = nullptr;
  double best_util = -1;
  for (const StatEntry& e : stats.entries()) {
    if (e.kind != StatKind::gauge || e.path.size() < 5 || e.path.compare(e.path.size() - 5, 5, "/busy") != 0) continue;
    const double util = static_cast<const TimeWeighted*>(e.stat)->mean(Time(0), end) / static_cast<double>(e.capacity);
    if (util > best_util + 1e-12) {
      best = &e;
      best_util = util;
    }
  }
  if (!best) return std::nullopt;
  return LimitedBy{best->path.substr(0, best->path.size() - 5), round_to(best_util, 4)};
}

namespace {

PathResult run_path(const Scenario& sc, const PathChoice& choice, const RunOptions& options, bool trace_this) {
  Trace trace;
  PathSimulation sim(sc, choice, options.series_period, trace_this ? &trace : nullptr);
  SimContext& ctx = sim.ctx;
  DataPath* path = sim.path.get();
  IoWorkload& workload = *sim.workload;
  Progress progress(choice.label, static_cast<std::uint64_t>(workload.total_bytes()), !options.progress,
                    Progress::Unit::bytes, /*only_if_slow=*/true);
  if (progress.enabled()) ctx.set_progress([&] { progress.set(static_cast<std::uint64_t>(workload.done_bytes())); });
  workload.start();
  ctx.run();
  ctx.set_progress({});
  progress.finish();
  if (const std::string left = workload.pending(); !left.empty())
    throw RunError(fmt::format("{}: the workload did not finish ({})", choice.name, left));

  // Aggregate over jobs: total bytes over the time the slowest job took.
  PathResult out;
  out.label = choice.label;
  PathMetrics& m = out.metrics;
  Bytes bytes;
  std::uint64_t ios = 0;
  Time first_done = Time::max(), last_done{};
  LogLinearHistogram latency;
  for (const JobResult& r : workload.results()) {
    bytes += r.bytes;
    ios += r.ios;
    first_done = std::min(first_done, r.first_done);
    last_done = std::max(last_done, r.last_done);
    latency.merge(r.latency_ns);
    m.jobs.push_back({r.target, r.bytes.n, round_to(gb_per_s(r.bytes, r.last_done), 4),
                      round_to(r.first_done.seconds(), 9), round_to(r.last_done.seconds(), 9)});
  }
  double cpu_busy = 0;
  for (const StatEntry& e : ctx.stats().entries())
    if (e.kind == StatKind::gauge && e.path.find("/cores/busy") != std::string::npos)
      cpu_busy += static_cast<const TimeWeighted*>(e.stat)->mean(Time(0), last_done);
  const double iops = static_cast<double>(ios) / last_done.seconds();
  m.throughput_GBps = round_to(gb_per_s(bytes, last_done), 4);
  m.iops = round_to(iops, 1);
  m.latency_mean_us = round_to(latency.mean() / 1e3, 3);
  m.latency_p50_us = round_to(static_cast<double>(latency.percentile(50)) / 1e3, 3);
  m.latency_p99_us = round_to(static_cast<double>(latency.percentile(99)) / 1e3, 3);
  m.latency_p999_us = round_to(static_cast<double>(latency.percentile(99.9)) / 1e3, 3);
  m.cpu_cores_busy = round_to(cpu_busy, 3);
  m.bytes = bytes.n;
  m.ios = ios;
  m.first_done_s = round_to(first_done.seconds(), 9);
  m.last_done_s = round_to(last_done.seconds(), 9);
  m.events = ctx.queue().executed();
  m.limited_by = limiting_resource(ctx.stats(), std::max(last_done, ctx.now()));
  // The host stack's efficiency (figures.md: 10 M IOPS per core, polled io_uring).
  if (cpu_busy > 0) m.iops_per_cpu_core = round_to(iops / cpu_busy, 1);
  m.note = path->note();
  if (trace_this) write_file_atomically(options.trace_file, trace.to_json());
  out.stats = collect_stats(ctx.stats(), last_done);
  return out;
}

// Device counts by model and the number of links, for the report's topology line.
TopologySummary topology_summary(const Json& topology) {
  TopologySummary t;
  if (topology.contains("devices") && topology["devices"].is_array())
    for (const Json& d : topology["devices"]) {
      const std::string model = d.is_object() ? d.value("model", "?") : "?";
      ++t.devices[model];
      ++t.device_count;
    }
  if (topology.contains("links") && topology["links"].is_array()) t.links = topology["links"].size();
  return t;
}

}  // namespace

RunResult run_scenario(const Scenario& sc, const RunOptions& options) {
  RunResult r;
  // The paths first: a bad topology is reported by the simulation that reads it.
  for (std::size_t i = 0; i < sc.paths.size(); ++i)
    r.paths.push_back(run_path(sc, sc.paths[i], options, i == 0 && !options.trace_file.empty()));
  r.iowall_version = kIowallVersion;
  r.scenario = sc.name;
  r.description = sc.description;
  r.topology = sc.topology.value("name", "");
  r.topology_summary = topology_summary(sc.topology);
  r.seed = sc.seed;
  r.fidelity = sc.fidelity;
  r.workload = sc.workload;
  return r;
}

}  // namespace iowall
