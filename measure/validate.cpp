#include "measure/validate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "measure/calibrate_topology.hpp"
#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/report/validate_result_json.hpp"
#include "sim/run/runner.hpp"

namespace iowall::calib {

using nlohmann::json;

// The simulated path of a measured point: gpu_direct measured in cuFile's compatibility
// mode is its POSIX path, not P2P DMA.
static std::string simulated_path(const PointGroup& g) {
  return g.xfer == "gpu_direct" && g.cufile_compat.value_or(false) ? "compat" : g.xfer;
}

json point_scenario(const PointGroup& g, const Profile& p, const json& topology) {
  const bool host_target = g.xfer == "cpu_only" || g.xfer == "cpu_cached";
  const std::string target = first_device(topology, host_target ? "dram" : "gpu");
  if (target.empty()) throw InputError("", "--topology", fmt::format("the topology has no target for {}", g.xfer));
  const std::string path_name = simulated_path(g);
  const double io_size = static_cast<double>(g.io_size);
  json path = g.writes() ? write_path_entry(p, path_name, g.qd, io_size, g.engine) : path_entry(p, path_name, g.qd, io_size);
  if (g.xfer == "cpu_cached" && !g.writes())
    path["cache_at_start"] = *g.median_cached_at_start() >= 0.5 ? "warm" : "cold";
  // Reads: enough I/Os per thread for the queue to reach its steady state. Writes: what
  // was written, since what an fsync waits for grows with it.
  const i64 ios_per_thread = 100 + 50 * static_cast<i64>(g.qd);
  json workload = {{"kind", g.io_mode == "randread" ? "random_read" : "sequential_read"},
                   {"size", to_string(Bytes(g.io_size * g.threads * ios_per_thread))},
                   {"io_size", to_string(Bytes(g.io_size))},
                   {"threads", g.threads},
                   {"qd", g.qd},
                   {"targets", target},
                   {"storage", first_device(topology, "nvme_ssd")}};
  if (g.writes()) {
    workload["kind"] = g.io_mode == "randwrite" ? "random_write" : "sequential_write";
    workload["size"] = to_string(Bytes(g.size));
    workload["durability"] = g.durability();
    if (g.durability() == "fsync_each") workload["fsync_every"] = g.sync_every();
  }
  return {{"name", "calibration-point"}, {"description", g.key()}, {"topology", topology},
          {"workload", workload},        {"paths", json::array({path})}, {"seed", 1}};
}

double simulate_point(const PointGroup& g, const Profile& p, const json& topology, std::string& limited_by) {
  const Scenario sc = scenario_from_json(point_scenario(g, p, topology), "validate", ".");
  const RunResult result = run_scenario(sc);
  const PathMetrics& m = result.paths.at(0).metrics;
  limited_by = m.limited_by ? m.limited_by->resource : "";
  return m.throughput_GBps * 1e9;
}

std::string point_type(const PointGroup& g) { return g.writes() ? g.xfer + " write" : g.xfer; }

// A write group: simulated as measured (its size, its durability) where the subset's fit
// has the drive's writes; `simulate(method)` runs it, `method` otherwise says why not.
template <typename Simulate>
static void predict_write(const PointGroup& g, const Profile& fit, const json& topology, Simulate&& simulate,
                          std::string& method) {
  if (g.xfer != "cpu_only" && g.xfer != "cpu_cached") {
    method = "not simulated: this validation covers cpu_only and cpu_cached writes";
  } else if (!fit.storage || !fit.writes.drive) {
    method = "not predicted: no drive write fit";
  } else if (first_device(topology, "dram").empty()) {
    method = "not predicted: the topology has no host memory";
  } else {
    simulate(fmt::format("simulation, writes until durable ({})", g.durability()));
  }
}

ErrorSummary summarize(const std::vector<PredictedPoint>& rows, bool fitted, const std::string& type) {
  std::vector<double> err, spread;
  ErrorSummary s;
  for (const PredictedPoint& r : rows) {
    const bool of_type = type.empty() || (type == kAllWrites ? r.group->writes() : point_type(*r.group) == type);
    if (r.fitted != fitted || r.predicted_bw <= 0 || !of_type) continue;
    err.push_back(std::fabs(r.error));
    spread.push_back(r.spread);
    s.worst_abs = std::max(s.worst_abs, std::fabs(r.error));
  }
  s.points = static_cast<int>(err.size());
  s.median_abs = median(err);
  s.median_spread = median(spread);
  return s;
}

namespace {
// A prediction interval for a new point: the parameters' spread (drawn) and the scatter
// of single configurations about the fitted model, which the standard errors do not
// carry. The scatter is the fit set's rms log residual (reads and writes apart), added in
// quadrature to each held-out interval's half-widths in log space at z = 1.645 (90%,
// two-sided). Without fitted points (a carried profile) nothing is added.
void widen_by_residuals(std::vector<PredictedPoint>& rows) {
  double sum[2] = {0, 0};
  int n[2] = {0, 0};
  for (const PredictedPoint& r : rows) {
    if (!r.fitted || r.predicted_bw <= 0) continue;
    const int k = r.group->writes() ? 1 : 0;
    const double e = std::log1p(r.error);
    sum[k] += e * e;
    ++n[k];
  }
  constexpr double z90 = 1.6449;
  for (PredictedPoint& r : rows) {
    const int k = r.group->writes() ? 1 : 0;
    if (r.fitted || !r.interval || n[k] == 0 || !(r.interval->median > 0) || !(r.interval->low > 0)) continue;
    const double scatter = z90 * std::sqrt(sum[k] / n[k]);
    const double down = std::log(r.interval->median / r.interval->low), up = std::log(r.interval->high / r.interval->median);
    r.interval->low = r.interval->median * std::exp(-std::hypot(down, scatter));
    r.interval->high = r.interval->median * std::exp(std::hypot(up, scatter));
  }
}
}  // namespace

ValidationResult validate(const std::vector<PointGroup>& groups, const Subset& subset, const json& base_topology,
                          const std::string& base_file, const std::function<void()>& group_done,
                          const Profile* carried, const UncertaintyOptions* uncertainty) {
  ValidationResult v;
  if (subset.none() && !carried) throw std::logic_error("validate: --fit-subset none needs the profile to carry");
  v.fit = subset.none() ? *carried : calibrate(groups, subset);
  const json topology = apply_profile(base_topology, v.fit, base_file,
                                      subset.none() ? "the profile as fitted, nothing refitted" : "fit on subset " + subset.spec());
  bool any_held_out = false;
  for (const PointGroup& g : groups) {
    PredictedPoint r;
    r.group = &g;
    r.fitted = subset.contains(g);
    any_held_out |= !r.fitted;
    r.measured_bw = g.median_bw();
    r.spread = (g.max_bw() - g.min_bw()) / r.measured_bw;
    auto simulate = [&](std::string method) {
      r.method = std::move(method);
      r.predicted_bw = simulate_point(g, v.fit, topology, r.limited_by);
      r.error = r.predicted_bw / r.measured_bw - 1;
      if (uncertainty && uncertainty->samples > 0) {
        const Scenario sc = scenario_from_json(point_scenario(g, v.fit, topology), "validate", ".");
        const RunResult u = run_with_uncertainty(sc, *uncertainty);
        const Interval gb = u.paths.at(0).intervals->throughput_GBps;
        r.interval = Interval{gb.median * 1e9, gb.low * 1e9, gb.high * 1e9};
      }
    };
    const bool compat = simulated_path(g) == "compat";
    if (g.writes()) {
      predict_write(g, v.fit, topology, simulate, r.method);
    } else if (g.xfer == "cpu_only" || g.xfer == "cpu_gpu" || compat) {
      if (!v.fit.storage) {
        r.method = "not predicted: no storage fit";
      } else if (g.xfer != "cpu_only" && first_device(topology, "gpu").empty()) {
        r.method = "not predicted: the topology has no GPU";
      } else {
        simulate(compat ? "simulation, cuFile compatibility mode (compat path)" : "simulation");
      }
    } else if (g.xfer == "cpu_cached") {
      // The model starts with the page cache all warm or all cold, so only those are simulated.
      const std::optional<double> cached = g.median_cached_at_start();
      if (!cached) {
        r.method = "not simulated: the measurement does not record how much of the file was cached";
      } else if (*cached > 0.01 && *cached < 0.99) {
        r.method = fmt::format("not simulated: {:.0f}% of the file was cached at the start", 100 * *cached);
      } else if (!v.fit.memcpy || (*cached < 0.5 && !v.fit.storage)) {
        r.method = "not predicted: no memcpy or storage fit";
      } else {
        simulate(*cached >= 0.5 ? "simulation, page cache warm" : "simulation, page cache cold");
      }
    } else if (g.xfer == "gpu_direct") {
      r.method = "not simulated: cuFile ran with GDS (P2P DMA) or did not say; this validation covers its compatibility mode";
    } else {
      r.method = "not simulated: no path for " + g.xfer;
    }
    v.rows.push_back(r);
    if (group_done) group_done();
  }
  if (!any_held_out) throw InputError("", "--fit-subset", fmt::format("\"{}\" holds every point: none is left to predict", subset.spec()));
  if (uncertainty && uncertainty->samples > 0) widen_by_residuals(v.rows);
  v.held_out = summarize(v.rows, false);
  v.in_sample = summarize(v.rows, true);
  bool held_out_writes = false;
  for (const PredictedPoint& r : v.rows) {
    if (r.fitted || r.predicted_bw <= 0) continue;
    held_out_writes |= r.group->writes();
    if (!v.held_out_by_type.count(point_type(*r.group)))
      v.held_out_by_type[point_type(*r.group)] = summarize(v.rows, false, point_type(*r.group));
  }
  if (held_out_writes) v.held_out_by_type[kAllWrites] = summarize(v.rows, false, kAllWrites);
  return v;
}

ValidateResult validation_result(const ValidationResult& v, const Profile& full) {
  auto summary = [](const ErrorSummary& s) { return ValidateSummary{s.points, s.median_abs, s.worst_abs, s.median_spread}; };
  ValidateResult out;
  out.fidelity = "chunk";  // each point is simulated at the scenario default, chunk
  out.fit_subset = v.fit.subset;
  out.fit = profile_to_json(v.fit);
  out.full_profile = full.name;
  out.held_out = summary(v.held_out);
  out.in_sample = summary(v.in_sample);
  for (const auto& [xfer, s] : v.held_out_by_type) out.held_out_by_type[xfer] = summary(s);
  for (const PredictedPoint& r : v.rows) {
    ValidatePoint row;
    row.point = r.group->key();
    row.set = r.fitted ? "fit" : "held_out";
    row.method = r.method;
    row.repeats = r.group->samples.size();
    row.measured_median = bandwidth_text(r.measured_bw);
    row.measured_min = bandwidth_text(r.group->min_bw());
    row.measured_max = bandwidth_text(r.group->max_bw());
    row.spread = r.spread;
    row.measured_median_Bps = r.measured_bw;
    row.measured_min_Bps = r.group->min_bw();
    row.measured_max_Bps = r.group->max_bw();
    if (r.predicted_bw > 0)
      row.prediction = ValidatePrediction{bandwidth_text(r.predicted_bw), r.predicted_bw, r.error, r.limited_by, r.interval};
    out.points.push_back(std::move(row));
  }
  return out;
}

std::string coverage_text(const ValidationResult& v) {
  int in[2] = {0, 0}, all[2] = {0, 0};  // reads, writes
  for (const PredictedPoint& r : v.rows) {
    if (r.fitted || !r.interval) continue;
    const int k = r.group->writes() ? 1 : 0;
    ++all[k];
    in[k] += r.interval->low <= r.measured_bw && r.measured_bw <= r.interval->high;
  }
  if (all[0] + all[1] == 0) return "";
  std::string out = "coverage of the held-out points' 90% intervals (the fit's standard errors drawn, its residual scatter added):\n";
  const char* names[2] = {"reads", "writes"};
  for (int k = 0; k < 2; ++k)
    if (all[k] > 0)
      out += fmt::format("  {:<7} {} of {} measured medians inside ({:.0f}%; nominal 90%)\n", names[k], in[k], all[k],
                         100.0 * in[k] / all[k]);
  return out;
}

json validation_json(const ValidationResult& v, const Profile& full) { return to_json(validation_result(v, full)); }

}  // namespace iowall::calib
