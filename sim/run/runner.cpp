#include "sim/run/runner.hpp"

#include <fmt/format.h>

#include "sim/config/topology.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/report/result_file.hpp"
#include "sim/report/stats_writers.hpp"
#include "sim/run/data_path.hpp"
#include "sim/run/io_workload.hpp"
#include "sim/run/path_simulation.hpp"

namespace iowall {
namespace {

double round_to(double v, int digits) {
  const double f = std::pow(10.0, digits);
  return std::round(v * f) / f;
}

}  // namespace

Json limiting_resource(const StatRegistry& stats, Time end) {
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
  if (!best) return nullptr;
  return {{"resource", best->path.substr(0, best->path.size() - 5)}, {"utilization", round_to(best_util, 4)}};
}

namespace {

Json run_path(const Scenario& sc, const PathChoice& choice, const RunOptions& options, bool trace_this) {
  Trace trace;
  PathSimulation sim(sc, choice, options.series_period, trace_this ? &trace : nullptr);
  SimContext& ctx = sim.ctx;
  DataPath* path = sim.path.get();
  IoWorkload& workload = *sim.workload;
  workload.start();
  ctx.run();
  if (const std::string left = workload.pending(); !left.empty())
    throw RunError(fmt::format("{}: the workload did not finish ({})", choice.name, left));

  // Aggregate over jobs: total bytes over the time the slowest job took.
  Bytes bytes;
  std::uint64_t ios = 0;
  Time first_done = Time::max(), last_done{};
  LogLinearHistogram latency;
  Json jobs = Json::array();
  for (const JobResult& r : workload.results()) {
    bytes += r.bytes;
    ios += r.ios;
    first_done = std::min(first_done, r.first_done);
    last_done = std::max(last_done, r.last_done);
    latency.merge(r.latency_ns);
    jobs.push_back({{"target", r.target},
                    {"bytes", r.bytes.n},
                    {"throughput_GBps", round_to(gb_per_s(r.bytes, r.last_done), 4)},
                    {"first_done_s", round_to(r.first_done.seconds(), 9)},
                    {"last_done_s", round_to(r.last_done.seconds(), 9)}});
  }
  double cpu_busy = 0;
  for (const StatEntry& e : ctx.stats().entries())
    if (e.kind == StatKind::gauge && e.path.find("/cores/busy") != std::string::npos)
      cpu_busy += static_cast<const TimeWeighted*>(e.stat)->mean(Time(0), last_done);
  const double iops = static_cast<double>(ios) / last_done.seconds();
  Json metrics = {{"throughput_GBps", round_to(gb_per_s(bytes, last_done), 4)},
                  {"iops", round_to(iops, 1)},
                  {"latency_mean_us", round_to(latency.mean() / 1e3, 3)},
                  {"latency_p50_us", round_to(static_cast<double>(latency.percentile(50)) / 1e3, 3)},
                  {"latency_p99_us", round_to(static_cast<double>(latency.percentile(99)) / 1e3, 3)},
                  {"latency_p999_us", round_to(static_cast<double>(latency.percentile(99.9)) / 1e3, 3)},
                  {"cpu_cores_busy", round_to(cpu_busy, 3)},
                  {"bytes", bytes.n},
                  {"ios", ios},
                  {"first_done_s", round_to(first_done.seconds(), 9)},
                  {"last_done_s", round_to(last_done.seconds(), 9)},
                  {"events", ctx.queue().executed()},
                  {"limited_by", limiting_resource(ctx.stats(), std::max(last_done, ctx.now()))},
                  {"jobs", jobs}};
  // The host stack's efficiency (figures.md: 10 M IOPS per core, polled io_uring).
  if (cpu_busy > 0) metrics["iops_per_cpu_core"] = round_to(iops / cpu_busy, 1);
  if (const std::string note = path->note(); !note.empty()) metrics["note"] = note;
  if (trace_this) write_file_atomically(options.trace_file, trace.to_json());
  return {{"path", choice.label}, {"metrics", metrics}, {"stats", stats_to_json(ctx.stats(), last_done)}};
}

// Device counts by model and the number of links, for the report's topology line.
Json topology_summary(const Json& topology) {
  Json models = Json::object();
  std::size_t devices = 0, links = 0;
  if (topology.contains("devices") && topology["devices"].is_array())
    for (const Json& d : topology["devices"]) {
      const std::string model = d.is_object() ? d.value("model", "?") : "?";
      models[model] = models.value(model, 0) + 1;
      ++devices;
    }
  if (topology.contains("links") && topology["links"].is_array()) links = topology["links"].size();
  return {{"device_count", devices}, {"devices", models}, {"links", links}};
}

}  // namespace

Json run_scenario(const Scenario& sc, const RunOptions& options) {
  Json metrics = Json::object(), stats = Json::object();
  Json order = Json::array();
  for (std::size_t i = 0; i < sc.paths.size(); ++i) {
    Json r = run_path(sc, sc.paths[i], options, i == 0 && !options.trace_file.empty());
    order.push_back(sc.paths[i].label);
    metrics[sc.paths[i].label] = std::move(r["metrics"]);
    stats[sc.paths[i].label] = std::move(r["stats"]);
  }
  return {{"iowall_result", result_marker("run")},
          {"iowall_version", "0.1.0"},
          {"scenario", sc.name},
          {"description", sc.description},
          {"topology", sc.topology.value("name", "")},
          {"topology_summary", topology_summary(sc.topology)},
          {"seed", sc.seed},
          {"fidelity", sc.fidelity},
          {"workload", sc.workload},
          {"paths", order},
          {"metrics", metrics},
          {"stats", stats}};
}

}  // namespace iowall
