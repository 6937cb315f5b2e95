#include "sim/plan/plan_report.hpp"

#include "sim/plan/node_rates.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/units.hpp"
#include "sim/plan/plan_chart.hpp"
#include "sim/plan/plan_text.hpp"

namespace iowall::plan {

namespace {
// The described cluster's parts for `units` servers' worth of bandwidth (whole servers).
// A time saved as the change it makes (negative: faster), without a negative zero.
double change(double saved) { return saved == 0 ? 0.0 : -saved; }
PlanPurchase purchase_of(const ClusterSpec& c, double units) {
  const int servers = std::max(1, static_cast<int>(std::ceil(units - 1e-9)));
  return {servers, servers * c.storage.drives, servers * c.storage.nics,
          (servers + c.storage.servers_per_leaf - 1) / c.storage.servers_per_leaf};
}
}  // namespace
namespace {

std::string dur(double s) {
  if (s >= 2 * 3600) return fmt::format("{:.3g} h", s / 3600);
  if (s >= 120) return fmt::format("{:.3g} min", s / 60);
  if (s >= 1) return fmt::format("{:.3g} s", s);
  return fmt::format("{:.3g} ms", s * 1e3);
}
std::string plan_pct(double f) { return fmt::format("{:.2f}%", 100 * f); }

PlanPhaseResult phase_result(const Phase& p) {
  PlanPhaseResult out{p.bytes, p.first_done, p.last_done, p.bottleneck, {}};
  // A bound named twice keeps its largest value (and at least 0).
  for (const auto& t : p.terms) {
    const auto it = out.bounds_s.find(t.name);
    out.bounds_s[t.name] = std::max(it == out.bounds_s.end() ? 0.0 : it->second, t.seconds);
  }
  return out;
}

}  // namespace

PlanAnswer answer(const PlanRequest& q) {
  PlanAnswer a;
  a.result = solve(q.input, q.fidelity);
  if (q.target_overhead) a.bandwidth = bandwidth_for_overhead(q.input, *q.target_overhead);
  if (q.window) a.window = largest_model_for_window(q.input, *q.window);
  if (q.levers) a.levers = purchase_levers(q.input, q.fidelity, a.result);
  return a;
}

std::string plan_table(const PlanRequest& q, const PlanAnswer& a) {
  const PlanInput& in = q.input;
  const PlanResult& r = a.result;
  const auto& b = r.bytes_per_param;
  std::string s = fmt::format("{}  ({} GPUs on {} nodes, tp {} x pp {} x dp {}, ZeRO-{}, {} + {}, {}{} to {}, {}{})\n",
                              q.name, in.par.gpus, r.nodes, in.par.tp, in.par.pp, in.par.dp, in.par.zero,
                              checkpoint::name(in.state.precision), checkpoint::name(in.state.optimizer),
                              in.async ? "async via host, " : "", name(in.path), in.storage.kind, q.fidelity,
                              in.restore == RestoreMode::read_all ? "" : std::string(", restore ") + name(in.restore));
  s += fmt::format("{:<14}{:.4g} params x {} B/param ({} weights + {} master + {} moments + {} gradients) = {}\n", "state",
                   r.params, b.saved(), b.weights, b.master, b.moments, b.gradients, bytes_text(r.total_bytes));
  s += fmt::format("{:<14}{} writers; at most {} per rank, {} per node; {} held per GPU in training\n", "", r.writers,
                   bytes_text(r.rank_max_bytes), bytes_text(r.node_max_bytes), bytes_text(r.training_state_per_gpu));
  auto phase = [&](const char* label, const Phase& p) {
    s += fmt::format("{:<14}first {:<10} last {:<10} ({} of {})  limited by {}\n", label, dur(p.first_done),
                     dur(p.last_done), rate_text(p.last_done > 0 ? p.bytes / p.last_done : 0), bytes_text(p.bytes), p.bottleneck);
  };
  if (in.node_sim) {
    const NodeSimulation& ns = *in.node_sim;
    auto run = [&](const std::vector<NodePhase>& phases) {
      std::string t;
      for (const NodePhase& p : phases)
        if (p.seconds > 0)
          t += fmt::format("{}{} {}{}", t.empty() ? "" : ", ", p.name, dur(p.seconds),
                           p.limited_by.empty() ? "" : fmt::format(" ({} {:.0f}%)", p.limited_by, 100 * p.utilization));
      return t;
    };
    s += fmt::format("{:<14}{}: {} GPU{} x {} each, {}, simulated at chunk fidelity\n", "node", ns.topology, ns.gpus,
                     ns.gpus == 1 ? "" : "s", bytes_text(ns.rank_bytes), name(ns.path));
    if (ns.first_save_s > 0) {
      const std::vector<NodePhase> periodic = periodic_save(ns, in.new_memory_share);
      double periodic_s = 0;
      for (const NodePhase& p : periodic) periodic_s += p.seconds;
      s += fmt::format("{:<14}save {}: {} ({:.0f}% of the bytes copied into new memory at every save: {})\n",
                       "", dur(periodic_s), run(periodic), 100 * in.new_memory_share, in.new_memory_from);
      s += fmt::format("{:<14}into memory kept from the last save {}; the first save in a process {} (every copy "
                       "into new memory)\n",
                       "", dur(ns.save_s), dur(ns.first_save_s));
    } else {
      s += fmt::format("{:<14}save {}: {}\n", "", dur(ns.save_s), run(ns.save));
    }
    // A buffered restore is simulated as a new process's (pageable_fresh: node_rates.cpp); a load into
    // memory a process already holds skips the page faults, so say which one the figure is.
    s += fmt::format("{:<14}restore {}: {}{}\n", "", dur(ns.restore_s), run(ns.restore),
                     ns.first_save_s > 0 ? " (a new process: every copy into new memory)" : "");
  }
  phase("save", r.save);
  if (in.async) s += fmt::format("{:<14}{} per checkpoint (copy to host memory; the flush runs behind training)\n", "stall", dur(r.stall));
  phase("restore", r.restore);
  s += fmt::format("{:<14}MTBF {} ({} h per GPU / {}); optimal interval Young {}, Daly {}; using {}{}\n", "failures",
                   dur(r.mtbf), fmt::format("{:.0f}", in.mttf / 3600), in.par.gpus, dur(r.young), dur(r.daly),
                   dur(r.interval), in.interval > 0 ? " (given)" : r.interval > r.daly ? " (the async flush; Daly is shorter)" : " (Daly)");
  s += fmt::format("{:<14}{} (checkpoints alone: {}); overhead {} of wall time; first order delta/T + (T/2+R)/M = {}\n",
                   "availability", plan_pct(r.availability), plan_pct(r.availability_no_failures), plan_pct(r.overhead),
                   plan_pct(r.waste_first_order));
  s += fmt::format("{:<14}{:.0f} GPU-h (checkpoints {:.0f}, rework and recovery {:.0f}); {:.3g} MWh of {:.3g} MW ({:.3g} MW wasted)\n",
                   "lost per day", r.gpu_hours_lost_per_day, r.gpu_hours_checkpoint, r.gpu_hours_rework, r.mwh_lost_per_day,
                   r.cluster_power / 1e6, r.power_wasted / 1e6);
  if (a.bandwidth) {
    const BandwidthAnswer& bw = *a.bandwidth;
    const std::string what = bw.per_node ? "per-node storage bandwidth" : "aggregate storage write bandwidth";
    if (bw.bandwidth)
      s += fmt::format("{:<14}overhead {} needs {} {}{}\n", "inverse", plan_pct(*q.target_overhead), what, rate_text(*bw.bandwidth),
                       bw.units > 0 ? fmt::format(" = {:.0f} x {} at {} each", bw.units, in.storage.server_unit,
                                                  rate_text(in.storage.server_write_bw))
                                    : "");
    if (bw.bandwidth && in.cluster) {
      const PlanPurchase p = purchase_of(*in.cluster, bw.units);
      s += fmt::format("{:<14}to buy: {} servers of the cluster's kind ({} drives, {} NIC ports, {} storage leaves); "
                       "the cluster describes {}\n",
                       "", p.servers, p.drives, p.nic_ports, p.storage_leaves, in.cluster->storage.servers);
    }
    else
      s += fmt::format("{:<14}overhead {} is out of reach: with unlimited storage bandwidth it is still {} (limited by {})\n",
                       "inverse", plan_pct(*q.target_overhead), plan_pct(bw.floor_overhead), bw.floor_bottleneck);
  }
  for (std::size_t i = 0; i < a.levers.size(); ++i) {
    const Lever& l = a.levers[i];
    s += fmt::format("{:<14}{} ({} {}{}): save {} ({:+.3g} s, {:+.3g} s per {}), restore {} ({:+.3g} s)\n",
                     i == 0 ? "levers" : "", l.name, l.units, l.unit, l.units == 1 ? "" : "s", dur(l.save_s),
                     change(l.save_saved_s), change(l.save_saved_per_unit_s), l.unit, dur(l.restore_s),
                     change(l.restore_saved_s));
  }
  if (a.window) {
    const WindowAnswer& w = *a.window;
    s += fmt::format("{:<14}a {} save window fits at most {:.4g} params ({}; {} held per GPU{})\n", "inverse",
                     dur(*q.window), static_cast<double>(w.params), bytes_text(w.bytes), bytes_text(w.training_state_per_gpu),
                     w.training_state_per_gpu > in.node.hbm_capacity ? ", more than HBM holds" : "");
  }
  for (const auto& w : r.warnings) s += "warning: " + w + "\n";
  if (!a.chart.empty()) s += "chart: " + a.chart + "\n";
  return s;
}

PlanCheckpointResult plan_result(const PlanRequest& q, const PlanAnswer& a) {
  const PlanInput& in = q.input;
  const PlanResult& r = a.result;
  const auto& b = r.bytes_per_param;
  PlanCheckpointResult j;
  j.name = q.name;
  j.fidelity = q.fidelity;
  j.settings = q.settings;
  j.storage_notes = in.storage.note_texts();
  j.state = {r.params,          b.weights,       b.master,         b.moments, b.gradients, b.saved(), r.total_bytes,
             r.writers,         r.nodes,         r.rank_max_bytes, r.node_max_bytes, r.training_state_per_gpu};
  if (in.node_sim) {
    const NodeSimulation& ns = *in.node_sim;
    PlanNodeResult n;
    n.topology = ns.topology;
    n.path = name(ns.path);
    n.gpus = ns.gpus;
    n.rank_bytes = ns.rank_bytes;
    n.save_s = ns.save_s;
    n.restore_s = ns.restore_s;
    n.first_save_s = ns.first_save_s;
    for (const NodePhase& p : ns.save) n.save.push_back({p.name, p.seconds, p.limited_by, p.utilization});
    for (const NodePhase& p : ns.restore) n.restore.push_back({p.name, p.seconds, p.limited_by, p.utilization});
    for (const NodePhase& p : ns.first_save) n.first_save.push_back({p.name, p.seconds, p.limited_by, p.utilization});
    if (ns.first_save_s > 0) {
      for (const NodePhase& p : periodic_save(ns, in.new_memory_share)) {
        n.periodic_save.push_back({p.name, p.seconds, p.limited_by, p.utilization});
        n.periodic_save_s += p.seconds;
      }
      n.new_memory_share = in.new_memory_share;
      n.new_memory_from = in.new_memory_from;
    }
    j.node = std::move(n);
  }
  j.save = phase_result(r.save);
  if (in.async) j.flush = phase_result(r.flush);
  j.restore = phase_result(r.restore);
  j.stall_s = r.stall;
  j.failures = {in.mttf, r.mtbf, r.young, r.daly, r.interval, r.recovery, r.waste_first_order};
  j.availability = r.availability;
  j.availability_no_failures = r.availability_no_failures;
  j.overhead = r.overhead;
  j.per_day = {r.gpu_hours_lost_per_day, r.gpu_hours_checkpoint, r.gpu_hours_rework,
               r.mwh_lost_per_day,       r.mwh_checkpoint,       r.mwh_rework};
  j.cluster_power_W = r.cluster_power;
  j.power_wasted_W = r.power_wasted;
  j.warnings = r.warnings;
  if (a.bandwidth) {
    const BandwidthAnswer& bw = *a.bandwidth;
    j.inverse_bandwidth = PlanInverseBandwidth{*q.target_overhead, bw.per_node,           bw.bandwidth, bw.units,
                                               in.storage.server_unit, bw.floor_overhead, bw.floor_bottleneck,
                                               std::nullopt};
    if (in.cluster && bw.bandwidth) j.inverse_bandwidth->purchase = purchase_of(*in.cluster, bw.units);
  }
  for (const Lever& l : a.levers)
    j.levers.push_back(PlanLever{l.name, l.unit, l.units, l.save_s, l.restore_s, l.save_saved_s, l.restore_saved_s,
                                 l.save_saved_per_unit_s});
  if (a.window)
    j.inverse_window = PlanInverseWindow{*q.window, a.window->params, a.window->bytes, a.window->save_time,
                                         a.window->training_state_per_gpu};
  // The chart's data, so that `iowall report` can draw it from the JSON alone. A node's
  // simulation covers one path: there is no GDS-against-bounce curve to draw.
  if (in.node_sim) {
    j.chart = a.chart;
    return j;
  }
  const OverheadCurve curve = overhead_curve(q);
  PlanOverheadCurve c{curve.per_node, curve.current_Bps, {}};
  for (const auto& p : curve.points) c.points.push_back({p.bandwidth_Bps, p.gds, p.bounce});
  j.overhead_vs_bandwidth = std::move(c);
  j.chart = a.chart;
  return j;
}

}  // namespace iowall::plan
