#include "sim/plan/plan_report.hpp"

#include <fmt/format.h>

#include "sim/core/units.hpp"
#include "sim/plan/plan_chart.hpp"
#include "sim/report/result_file.hpp"

namespace iowall::plan {
namespace {

std::string size(double b) {
  if (b >= 1e12) return fmt::format("{:.3g} TB", b / 1e12);
  if (b >= 1e9) return fmt::format("{:.3g} GB", b / 1e9);
  return fmt::format("{:.3g} MB", b / 1e6);
}
std::string dur(double s) {
  if (s >= 2 * 3600) return fmt::format("{:.3g} h", s / 3600);
  if (s >= 120) return fmt::format("{:.3g} min", s / 60);
  if (s >= 1) return fmt::format("{:.3g} s", s);
  return fmt::format("{:.3g} ms", s * 1e3);
}
std::string rate(double bps) {
  if (bps >= 1e12) return fmt::format("{:.3g} TB/s", bps / 1e12);
  return fmt::format("{:.3g} GB/s", bps / 1e9);
}
std::string pct(double f) { return fmt::format("{:.2f}%", 100 * f); }

nlohmann::json phase_json(const Phase& p) {
  nlohmann::json terms = nlohmann::json::object();
  for (const auto& t : p.terms) terms[t.name] = std::max(terms.value(t.name, 0.0), t.seconds);
  return {{"bytes", p.bytes}, {"first_done_s", p.first_done}, {"last_done_s", p.last_done},
          {"bottleneck", p.bottleneck}, {"bounds_s", terms}};
}

}  // namespace

PlanAnswer answer(const PlanRequest& q) {
  PlanAnswer a;
  a.result = solve(q.input, q.fidelity);
  if (q.target_overhead) a.bandwidth = bandwidth_for_overhead(q.input, *q.target_overhead);
  if (q.window) a.window = largest_model_for_window(q.input, *q.window);
  return a;
}

std::string plan_table(const PlanRequest& q, const PlanAnswer& a) {
  const PlanInput& in = q.input;
  const PlanResult& r = a.result;
  const auto& b = r.bytes_per_param;
  std::string s = fmt::format("{}  ({} GPUs on {} nodes, tp {} x pp {} x dp {}, ZeRO-{}, {} + {}, {}{} to {}, {})\n",
                              q.name, in.par.gpus, r.nodes, in.par.tp, in.par.pp, in.par.dp, in.par.zero,
                              checkpoint::name(in.state.precision), checkpoint::name(in.state.optimizer),
                              in.async ? "async via host, " : "", name(in.path), in.storage.kind, q.fidelity);
  s += fmt::format("{:<14}{:.4g} params x {} B/param ({} weights + {} master + {} moments + {} gradients) = {}\n", "state",
                   r.params, b.saved(), b.weights, b.master, b.moments, b.gradients, size(r.total_bytes));
  s += fmt::format("{:<14}{} writers; at most {} per rank, {} per node; {} held per GPU in training\n", "", r.writers,
                   size(r.rank_max_bytes), size(r.node_max_bytes), size(r.training_state_per_gpu));
  auto phase = [&](const char* label, const Phase& p) {
    s += fmt::format("{:<14}first {:<10} last {:<10} ({} of {})  limited by {}\n", label, dur(p.first_done),
                     dur(p.last_done), rate(p.last_done > 0 ? p.bytes / p.last_done : 0), size(p.bytes), p.bottleneck);
  };
  phase("save", r.save);
  if (in.async) s += fmt::format("{:<14}{} per checkpoint (copy to host memory; the flush runs behind training)\n", "stall", dur(r.stall));
  phase("restore", r.restore);
  s += fmt::format("{:<14}MTBF {} ({} h per GPU / {}); optimal interval Young {}, Daly {}; using {}{}\n", "failures",
                   dur(r.mtbf), fmt::format("{:.0f}", in.mttf / 3600), in.par.gpus, dur(r.young), dur(r.daly),
                   dur(r.interval), in.interval > 0 ? " (given)" : r.interval > r.daly ? " (the async flush; Daly is shorter)" : " (Daly)");
  s += fmt::format("{:<14}{} (checkpoints alone: {}); overhead {} of wall time; first order delta/T + (T/2+R)/M = {}\n",
                   "availability", pct(r.availability), pct(r.availability_no_failures), pct(r.overhead),
                   pct(r.waste_first_order));
  s += fmt::format("{:<14}{:.0f} GPU-h (checkpoints {:.0f}, rework and recovery {:.0f}); {:.3g} MWh of {:.3g} MW ({:.3g} MW wasted)\n",
                   "lost per day", r.gpu_hours_lost_per_day, r.gpu_hours_checkpoint, r.gpu_hours_rework, r.mwh_lost_per_day,
                   r.cluster_power / 1e6, r.power_wasted / 1e6);
  if (a.bandwidth) {
    const BandwidthAnswer& bw = *a.bandwidth;
    const std::string what = bw.per_node ? "per-node storage bandwidth" : "aggregate storage write bandwidth";
    if (bw.bandwidth)
      s += fmt::format("{:<14}overhead {} needs {} {}{}\n", "inverse", pct(*q.target_overhead), what, rate(*bw.bandwidth),
                       bw.units > 0 ? fmt::format(" = {:.0f} x {} at {} each", bw.units, in.storage.server_unit,
                                                  rate(in.storage.server_write_bw))
                                    : "");
    else
      s += fmt::format("{:<14}overhead {} is out of reach: with unlimited storage bandwidth it is still {} (limited by {})\n",
                       "inverse", pct(*q.target_overhead), pct(bw.floor_overhead), bw.floor_bottleneck);
  }
  if (a.window) {
    const WindowAnswer& w = *a.window;
    s += fmt::format("{:<14}a {} save window fits at most {:.4g} params ({}; {} held per GPU{})\n", "inverse",
                     dur(*q.window), static_cast<double>(w.params), size(w.bytes), size(w.training_state_per_gpu),
                     w.training_state_per_gpu > in.node.hbm_capacity ? ", more than HBM holds" : "");
  }
  for (const auto& w : r.warnings) s += "warning: " + w + "\n";
  if (!a.chart.empty()) s += "chart: " + a.chart + "\n";
  return s;
}

nlohmann::json plan_json(const PlanRequest& q, const PlanAnswer& a) {
  const PlanInput& in = q.input;
  const PlanResult& r = a.result;
  const auto& b = r.bytes_per_param;
  nlohmann::json j;
  j["iowall_result"] = result_marker("plan_checkpoint");
  j["name"] = q.name;
  j["fidelity"] = q.fidelity;
  j["settings"] = q.settings;
  j["storage_notes"] = in.storage.notes;
  j["state"] = {{"params", r.params},
                {"bytes_per_param", {{"weights", b.weights}, {"master", b.master}, {"moments", b.moments},
                                     {"gradients", b.gradients}, {"saved", b.saved()}}},
                {"total_bytes", r.total_bytes},
                {"writers", r.writers},
                {"nodes", r.nodes},
                {"rank_max_bytes", r.rank_max_bytes},
                {"node_max_bytes", r.node_max_bytes},
                {"training_state_per_gpu_bytes", r.training_state_per_gpu}};
  j["save"] = phase_json(r.save);
  if (in.async) j["flush"] = phase_json(r.flush);
  j["restore"] = phase_json(r.restore);
  j["stall_s"] = r.stall;
  j["failures"] = {{"mttf_s", in.mttf},          {"mtbf_s", r.mtbf},          {"young_interval_s", r.young},
                   {"daly_interval_s", r.daly},  {"interval_s", r.interval},  {"recovery_s", r.recovery},
                   {"waste_first_order", r.waste_first_order}};
  j["availability"] = r.availability;
  j["availability_no_failures"] = r.availability_no_failures;
  j["overhead"] = r.overhead;
  j["per_day"] = {{"gpu_hours_lost", r.gpu_hours_lost_per_day}, {"gpu_hours_checkpoint", r.gpu_hours_checkpoint},
                  {"gpu_hours_rework", r.gpu_hours_rework},     {"mwh_lost", r.mwh_lost_per_day},
                  {"mwh_checkpoint", r.mwh_checkpoint},         {"mwh_rework", r.mwh_rework}};
  j["cluster_power_W"] = r.cluster_power;
  j["power_wasted_W"] = r.power_wasted;
  j["warnings"] = r.warnings;
  if (a.bandwidth) {
    const BandwidthAnswer& bw = *a.bandwidth;
    j["inverse_bandwidth"] = {{"target_overhead", *q.target_overhead},
                              {"per_node", bw.per_node},
                              {"bandwidth_Bps", bw.bandwidth ? nlohmann::json(*bw.bandwidth) : nlohmann::json()},
                              {"units", bw.units},
                              {"unit", in.storage.server_unit},
                              {"floor_overhead", bw.floor_overhead},
                              {"floor_bottleneck", bw.floor_bottleneck}};
  }
  if (a.window)
    j["inverse_window"] = {{"window_s", *q.window}, {"params", a.window->params}, {"total_bytes", a.window->bytes},
                           {"save_s", a.window->save_time},
                           {"training_state_per_gpu_bytes", a.window->training_state_per_gpu}};
  // The chart's data, so that `iowall report` can draw it from the JSON alone.
  j["overhead_vs_bandwidth"] = overhead_curve_json(overhead_curve(q));
  if (!a.chart.empty()) j["chart"] = a.chart;
  return j;
}

}  // namespace iowall::plan
