#include "sim/run/runner.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/config/topology.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/run/data_path.hpp"
#include "sim/run/path_simulation.hpp"
#include "sim/report/progress.hpp"

namespace iowall {
namespace {

double round_to_digits(double v, int digits) {
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
  return LimitedBy{best->path.substr(0, best->path.size() - 5), round_to_digits(best_util, 4)};
}

std::optional<LimitedBy> limiting_resource(const StatRegistry& stats, const std::vector<double>& at_start,
                                           const std::vector<double>& at_end, Time start, Time end,
                                           const std::string& skip) {
  const StatEntry* best = nullptr;
  double best_util = -1;
  const double span = (end - start).ps_value();
  if (span <= 0) return std::nullopt;
  for (std::size_t i = 0; i < stats.entries().size() && i < at_end.size(); ++i) {
    const StatEntry& e = stats.entries()[i];
    if (e.kind != StatKind::gauge || e.path.size() < 5 || e.path.compare(e.path.size() - 5, 5, "/busy") != 0) continue;
    if (!skip.empty() && e.path.size() == skip.size() + 5 && e.path.compare(0, skip.size(), skip) == 0) continue;
    const double from = i < at_start.size() ? at_start[i] : 0.0;
    const double util = (at_end[i] - from) / span / static_cast<double>(e.capacity);
    if (util > best_util + 1e-12) {
      best = &e;
      best_util = util;
    }
  }
  if (!best) return std::nullopt;
  return LimitedBy{best->path.substr(0, best->path.size() - 5), round_to_digits(best_util, 4)};
}

namespace {

// A phase's thread and the busiest other resource that are each busy less than this
// share of it, but together at least kSeriesTogether, take turns: the thread works, then
// waits on the resource (a mapped load's thread allocates a view's pages, then the disk
// reads them while the thread waits), and the phase is bound by the two in series: making
// either faster shortens it, and neither is saturated.
constexpr double kSeriesEach = 0.85;
constexpr double kSeriesTogether = 0.9;

// Each phase over the jobs: the longest job's time in it, its span, and what bound it:
// the busiest resource over the span of the job that took longest, or that job's own
// thread when it was busier still (one thread is one core's worth of work), or the two
// in series (kSeriesEach).
std::vector<PhaseMetrics> phase_metrics(const std::vector<std::vector<PhaseSpan>>& jobs, const StatRegistry& stats) {
  std::vector<PhaseMetrics> out;
  if (jobs.empty()) return out;
  for (std::size_t i = 0; i < jobs.front().size(); ++i) {
    PhaseMetrics p;
    p.name = jobs.front()[i].name;
    const PhaseSpan* longest = nullptr;
    Time start = Time::max(), end{};
    for (const auto& job : jobs) {
      if (i >= job.size()) continue;
      const PhaseSpan& s = job[i];
      start = std::min(start, s.start);
      end = std::max(end, s.end);
      if (!longest || s.end - s.start > longest->end - longest->start) longest = &s;
    }
    p.seconds = round_to_digits((longest->end - longest->start).seconds(), 9);
    p.start_s = round_to_digits(start.seconds(), 9);
    p.end_s = round_to_digits(end.seconds(), 9);
    if (longest->end > longest->start) {
      const auto busiest = [&](const std::string& skip) {
        return limiting_resource(stats, longest->busy_start, longest->busy_end, longest->start, longest->end, skip);
      };
      p.limited_by = busiest({});
      const double thread = longest->thread_busy.seconds() / (longest->end - longest->start).seconds();
      const auto other = longest->thread.empty() ? std::nullopt : busiest(longest->thread);
      if (other && thread < kSeriesEach && other->utilization < kSeriesEach &&
          thread + other->utilization >= kSeriesTogether)
        p.limited_by = LimitedBy{fmt::format("{} in series with {}", longest->thread, other->resource),
                                 round_to_digits(std::min(1.0, thread + other->utilization), 4)};
      else if (!longest->thread.empty() && (!p.limited_by || thread > p.limited_by->utilization))
        p.limited_by = LimitedBy{longest->thread, round_to_digits(std::min(1.0, thread), 4)};
    }
    out.push_back(std::move(p));
  }
  return out;
}

// A workload of phases one after another (a save's copy, serialization and flush) is
// bound, phase by phase, by different things; the whole is bound by what bound the
// phases that took most of its time: the limit whose phases sum to the longest time,
// with its busy share of the whole run. (The busiest resource over the whole run would
// name, say, the flusher that worked a quarter of the time while a CPU thread copied.)
std::optional<LimitedBy> phased_limit(const std::vector<PhaseMetrics>& phases) {
  std::vector<std::pair<std::string, std::pair<double, double>>> by_limit;  // seconds, busy seconds
  double total = 0;
  for (const PhaseMetrics& p : phases) {
    total += p.seconds;
    if (!p.limited_by) continue;
    auto it = std::find_if(by_limit.begin(), by_limit.end(), [&](const auto& e) { return e.first == p.limited_by->resource; });
    if (it == by_limit.end()) it = by_limit.insert(by_limit.end(), {p.limited_by->resource, {0.0, 0.0}});
    it->second.first += p.seconds;
    it->second.second += p.seconds * p.limited_by->utilization;
  }
  const auto best = std::max_element(by_limit.begin(), by_limit.end(),
                                     [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
  if (best == by_limit.end() || !(total > 0)) return std::nullopt;
  return LimitedBy{best->first, round_to_digits(std::min(1.0, best->second.second / total), 4)};
}

// Below this utilization the busiest resource is idle most of the time: it is not what
// bounds a closed loop.
constexpr double kWindowBoundBelow = 0.5;

// `trace` (optional) records this path's run next to the paths before it.
PathResult run_path(const Scenario& sc, const PathChoice& choice, const RunOptions& options, Trace* trace) {
  if (trace) trace->begin_path(choice.label, sc.paths.size());
  PathSimulation sim(sc, choice, options.series_period, trace);
  SimContext& ctx = sim.ctx;
  DataPath* path = sim.path.get();
  Workload& workload = *sim.workload;
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
    m.jobs.push_back({r.target, r.bytes.count(), round_to_digits(gb_per_s(r.bytes, r.last_done), 4),
                      round_to_digits(r.first_done.seconds(), 9), round_to_digits(r.last_done.seconds(), 9)});
  }
  double cpu_busy = 0;
  for (const StatEntry& e : ctx.stats().entries())
    if (e.kind == StatKind::gauge && e.path.find("/cores/busy") != std::string::npos)
      cpu_busy += static_cast<const TimeWeighted*>(e.stat)->mean(Time(0), last_done);
  const double iops = static_cast<double>(ios) / last_done.seconds();
  m.throughput_GBps = round_to_digits(gb_per_s(bytes, last_done), 4);
  m.iops = round_to_digits(iops, 1);
  m.latency_mean_us = round_to_digits(latency.mean() / 1e3, 3);
  m.latency_p50_us = round_to_digits(static_cast<double>(latency.percentile(50)) / 1e3, 3);
  m.latency_p99_us = round_to_digits(static_cast<double>(latency.percentile(99)) / 1e3, 3);
  m.latency_p999_us = round_to_digits(static_cast<double>(latency.percentile(99.9)) / 1e3, 3);
  m.cpu_cores_busy = round_to_digits(cpu_busy, 3);
  m.bytes = bytes.count();
  m.ios = ios;
  m.first_done_s = round_to_digits(first_done.seconds(), 9);
  m.last_done_s = round_to_digits(last_done.seconds(), 9);
  m.events = ctx.queue().executed();
  m.limited_by = limiting_resource(ctx.stats(), std::max(last_done, ctx.now()));
  m.phases = phase_metrics(workload.phases(), ctx.stats());
  if (m.phases.size() > 1)
    if (auto phased = phased_limit(m.phases)) m.limited_by = std::move(phased);
  // A closed loop whose busiest resource is idle most of the time is bound by its window:
  // it keeps `slots` I/Os in flight and each takes its latency, so raising the queue depth
  // (not a faster device) raises the rate. The window's occupancy is Little's law's
  // IOPS x mean latency / slots.
  if (const Workload::Window w = workload.io_window();
      w.slots > 0 && ios > 0 && (!m.limited_by || m.limited_by->utilization < kWindowBoundBelow)) {
    const double occupancy = iops * latency.mean() / 1e9 / static_cast<double>(w.slots);
    m.limited_by = LimitedBy{"io window (" + w.what + ")", round_to_digits(std::min(1.0, occupancy), 4)};
  }
  // The host stack's efficiency (figures.md: 10 M IOPS per core, polled io_uring).
  if (cpu_busy > 0) m.iops_per_cpu_core = round_to_digits(iops / cpu_busy, 1);
  m.note = path->note();
  if (workload.reports_durability()) {
    Time writes_done{};
    for (const JobResult& r : workload.results()) writes_done = std::max(writes_done, r.writes_done);
    m.write_phase_s = round_to_digits(writes_done.seconds(), 9);
    if (workload.durable()) m.durable_s = m.last_done_s;
  }
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
  Trace trace(options.trace_events);
  Trace* traced = options.trace_file.empty() ? nullptr : &trace;
  for (const PathChoice& choice : sc.paths) r.paths.push_back(run_path(sc, choice, options, traced));
  if (traced) write_file_atomically(options.trace_file, trace.to_json());
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
