#include "sim/plan/checkpoint_planner.hpp"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/plan/failure_model.hpp"
#include "sim/plan/io_time.hpp"
#include "sim/plan/plan_text.hpp"
#include "sim/plan/restore_broadcast.hpp"

namespace iowall::plan {
namespace {

std::string secs_text(double s) { return s >= 100 ? fmt::format("{:.0f} s", s) : fmt::format("{:.3g} s", s); }

// Bytes a GPU holds while training: the state it would restore plus its gradients.
double training_state_per_gpu(const PlanInput& in, const checkpoint::ShardPlan& sh) {
  const checkpoint::BytesPerParam b = checkpoint::bytes_per_param(in.state);
  if (b.gradients > 0) return static_cast<double>(sh.rank_restore_max);
  const double per_group = static_cast<double>(in.state.params) / (double(in.par.tp) * in.par.pp);
  return static_cast<double>(sh.rank_restore_max) + b.weights * per_group / (in.par.zero >= 2 ? in.par.dp : 1);
}

void check_input(const PlanInput& in, const checkpoint::ShardPlan& sh) {
  if (!(in.mttf > 0)) throw InputError("", "--mttf", "the MTTF must be positive (failures cannot be certain)");
  if (in.state.params <= 0) throw InputError("", "--params", "the model needs at least one parameter");
  const StorageTarget& s = in.storage;
  if (s.capacity > 0 && sh.total_bytes > s.capacity)
    throw InputError("", "--capacity",
                     fmt::format("a checkpoint of {} does not fit in the storage capacity of {}",
                                 bytes_text(sh.total_bytes), bytes_text(s.capacity)));
  if (s.capacity_per_node > 0 && sh.node_save_max > s.capacity_per_node)
    throw InputError("", "--capacity",
                     fmt::format("one node writes {} but its local storage holds {}", bytes_text(sh.node_save_max),
                                 bytes_text(s.capacity_per_node)));
  if (in.async && sh.node_save_max > in.node.host_mem_capacity)
    throw InputError("", "--async",
                     fmt::format("one node stages {} but has {} of host memory", bytes_text(sh.node_save_max),
                                 bytes_text(in.node.host_mem_capacity)));
}

std::map<std::string, Solver>& solvers() {
  static std::map<std::string, Solver> s{{"analytical", [](const PlanInput& in) { return plan_checkpoint(in); }}};
  return s;
}

}  // namespace

const char* name(IoPath p) { return p == IoPath::gds ? "gds" : p == IoPath::bounce ? "bounce" : "buffered"; }

PhaseLoads phase_loads(const PlanInput& in, const checkpoint::ShardPlan& sh) {
  return {rank_load(sh.save_bytes, in.par.gpus_per_node),
          rank_load(restore_read_bytes(in.restore, sh), in.par.gpus_per_node)};
}

PlanResult plan_with(const PlanInput& in, const checkpoint::ShardPlan& sh) { return plan_with(in, sh, phase_loads(in, sh)); }

PlanResult plan_with(const PlanInput& in, const checkpoint::ShardPlan& sh, const PhaseLoads& loads) {
  return plan_with(in, sh, [&](Direction dir, const Stages& st) {
    return transfer(in, dir == Direction::save ? loads.save : loads.restore, dir, st);
  });
}

PlanResult plan_with(const PlanInput& in, const checkpoint::ShardPlan& sh, const PhaseFn& phase) {
  check_input(in, sh);
  PlanResult r;
  r.bytes_per_param = checkpoint::bytes_per_param(in.state);
  r.params = static_cast<double>(in.state.params);
  r.total_bytes = static_cast<double>(sh.total_bytes);
  r.rank_max_bytes = static_cast<double>(sh.rank_save_max);
  r.node_max_bytes = static_cast<double>(sh.node_save_max);
  r.writers = sh.writers;
  r.nodes = sh.nodes;
  r.training_state_per_gpu = training_state_per_gpu(in, sh);

  if (in.async) {
    const Phase copy = phase(Direction::save, copy_stages(in));
    r.flush = phase(Direction::save, flush_stages(in));
    r.stall = copy.last_done;
    // Durable when the flush is done; what limits it is the flush's bottleneck.
    r.save = r.flush;
    r.save.first_done = copy.first_done + r.flush.first_done;
    r.save.last_done = copy.last_done + r.flush.last_done;
  } else {
    r.save = phase(Direction::save, save_stages(in));
    r.stall = r.save.last_done;
  }
  r.restore = phase(Direction::restore, restore_stages(in));
  if (in.restore == RestoreMode::read_once_broadcast) add_broadcast(in, sh, r.restore);

  r.mtbf = in.mttf / in.par.gpus;
  double delta = r.stall;
  // Work since the last durable checkpoint is lost on failure: with async saves that
  // includes the flush still in progress (an assumption of the first-order model).
  r.recovery = r.restore.last_done + in.restart + (in.async ? r.flush.last_done : 0.0);
  r.young = young_interval(delta, r.mtbf);
  r.daly = daly_interval(delta, r.mtbf);
  r.interval = in.interval > 0 ? in.interval : r.daly;
  // Async: Daly's optimum from the short stall can be shorter than the flush; a new
  // checkpoint cannot start before the last is durable, so the optimum is at least it.
  if (in.async && in.interval <= 0) r.interval = std::max(r.interval, r.flush.last_done);
  if (in.async && r.flush.last_done > r.interval) {
    delta += r.flush.last_done - r.interval;  // the next checkpoint waits for the flush
    r.warnings.push_back(fmt::format("interval {} is shorter than the background flush ({}): each checkpoint waits {}",
                                     secs_text(r.interval), secs_text(r.flush.last_done),
                                     secs_text(r.flush.last_done - r.interval)));
  }
  if (!in.async && r.interval < r.save.last_done)
    r.warnings.push_back(fmt::format("interval {} is shorter than the checkpoint save time ({}): more time saving than training",
                                     secs_text(r.interval), secs_text(r.save.last_done)));
  r.stall = delta;
  r.waste_first_order = waste_first_order(delta, r.interval, r.recovery, r.mtbf);
  r.availability = availability(delta, r.interval, r.recovery, r.mtbf);
  r.availability_no_failures = r.interval / (r.interval + delta);
  r.overhead = 1.0 - r.availability;

  // Losses per day of wall time. Checkpoint time: delta for every T of useful work;
  // rework: the rest of what is lost (re-done work, restore, restart).
  const double gpu_hours_day = in.par.gpus * 24.0;
  r.gpu_hours_lost_per_day = gpu_hours_day * r.overhead;
  r.gpu_hours_checkpoint = std::min(r.gpu_hours_lost_per_day, gpu_hours_day * r.availability * delta / r.interval);
  r.gpu_hours_rework = r.gpu_hours_lost_per_day - r.gpu_hours_checkpoint;
  // Power: the cluster draws it whether or not training progresses (an upper bound:
  // stalled GPUs draw less than busy ones).
  r.cluster_power = in.cluster_power > 0 ? in.cluster_power : in.par.gpus * 1275.0;
  r.power_wasted = r.cluster_power * r.overhead;
  r.mwh_lost_per_day = r.power_wasted * 24.0 / 1e6;
  r.mwh_checkpoint = r.mwh_lost_per_day * (r.gpu_hours_lost_per_day > 0 ? r.gpu_hours_checkpoint / r.gpu_hours_lost_per_day : 0);
  r.mwh_rework = r.mwh_lost_per_day - r.mwh_checkpoint;

  if (r.training_state_per_gpu > in.node.hbm_capacity)
    r.warnings.push_back(fmt::format("the training state is {} per GPU, more than its {} of HBM: this parallelism cannot train it",
                                     bytes_text(r.training_state_per_gpu), bytes_text(in.node.hbm_capacity)));
  if (in.storage.capacity > 0 && 2 * r.total_bytes > in.storage.capacity)
    r.warnings.push_back("only one checkpoint fits in the storage: the next cannot be written before the last is deleted");
  // Failures faster than recovery: the cluster spends most of its time restoring, and the
  // first-order waste (a sum of ratios to the MTBF) runs past 100%, where it means nothing.
  if (r.recovery >= r.mtbf)
    r.warnings.push_back(fmt::format(
        "failures outpace recovery: the cluster fails every {} on average (MTBF), recovering takes {} (restore {}, "
        "restart {}{}); availability {:.1f}%: fewer GPUs per job, a faster restore or a longer MTTF is needed",
        secs_text(r.mtbf), secs_text(r.recovery), secs_text(r.restore.last_done), secs_text(in.restart),
        in.async ? fmt::format(", flush {}", secs_text(r.flush.last_done)) : std::string(), 100.0 * r.availability));
  if (r.waste_first_order > 1.0)
    r.warnings.push_back(fmt::format(
        "the first-order waste delta/T + (T/2+R)/M is {:.0f}%, past 100% where the first-order model does not hold; "
        "the availability ({:.1f}%, exponential failures) is the figure to read",
        100.0 * r.waste_first_order, 100.0 * r.availability));
  return r;
}

PlanResult plan_checkpoint(const PlanInput& in) { return plan_with(in, checkpoint::shard(in.state, in.par)); }

void register_solver(const std::string& fidelity, Solver solver) { solvers()[fidelity] = std::move(solver); }

PlanResult solve(const PlanInput& in, const std::string& fidelity) {
  const auto it = solvers().find(fidelity);
  if (it == solvers().end()) {
    std::string known;
    for (const auto& [k, v] : solvers()) known += (known.empty() ? "" : ", ") + k;
    throw InputError("", "--fidelity", fmt::format("no \"{}\" planner in this build (available: {})", fidelity, known));
  }
  return it->second(in);
}

PlanInput with_storage_bandwidth(PlanInput in, double bw) {
  StorageTarget& s = in.storage;
  if (s.write_bw > 0) {
    s.read_bw = s.read_bw > 0 ? s.read_bw * bw / s.write_bw : bw;
    s.write_bw = bw;
  } else {
    s.node_read_bw = s.node_read_bw > 0 ? s.node_read_bw * bw / s.node_write_bw : bw;
    s.node_write_bw = bw;
    // A simulated node's drives give way to the bandwidth asked about.
    in.node_overrides.node_bw = in.node_overrides.node_read_bw = true;
  }
  return in;
}

BandwidthAnswer bandwidth_for_overhead(const PlanInput& in, double target) {
  if (!(target > 0 && target < 1)) throw InputError("", "--target-overhead", "the target must be between 0% and 100%");
  const checkpoint::ShardPlan sh = checkpoint::shard(in.state, in.par);
  const PhaseLoads loads = phase_loads(in, sh);
  BandwidthAnswer a;
  a.per_node = !(in.storage.write_bw > 0);
  auto overhead = [&](double bw) { return plan_with(with_storage_bandwidth(in, bw), sh, loads).overhead; };
  // The floor: storage bandwidth no longer matters, the other resources decide.
  const PlanResult unlimited = plan_with(with_storage_bandwidth(in, 1e18), sh, loads);
  a.floor_overhead = unlimited.overhead;
  a.floor_bottleneck = unlimited.save.bottleneck;
  if (a.floor_overhead > target) return a;
  // Overhead falls as bandwidth rises: bisect on log(bandwidth).
  double lo = std::log(1e6), hi = std::log(1e18);
  for (int i = 0; i < 80; ++i) {
    const double mid = 0.5 * (lo + hi);
    (overhead(std::exp(mid)) > target ? lo : hi) = mid;
  }
  a.bandwidth = std::exp(hi);
  a.units = in.storage.servers_for(*a.bandwidth);
  return a;
}

WindowAnswer largest_model_for_window(const PlanInput& in, double window) {
  if (!(window > 0)) throw InputError("", "--window", "the window must be positive");
  auto save_time = [&](std::int64_t params) {
    PlanInput q = in;
    q.state.params = params;
    const RankLoad l = rank_load(checkpoint::shard(q.state, q.par).save_bytes, q.par.gpus_per_node);
    if (!q.async) return transfer(q, l, Direction::save, save_stages(q)).last_done;
    return transfer(q, l, Direction::save, copy_stages(q)).last_done +
           transfer(q, l, Direction::save, flush_stages(q)).last_done;
  };
  WindowAnswer a;
  std::int64_t lo = 0, hi = 1'000'000;
  while (save_time(hi) <= window) {
    lo = hi;
    if (hi > (std::int64_t{1} << 52)) break;  // beyond any model: the window is not the limit
    hi *= 2;
  }
  while (hi - lo > std::max<std::int64_t>(1, lo / 1'000'000)) {  // to one part in a million
    const std::int64_t mid = lo + (hi - lo) / 2;
    (save_time(mid) <= window ? lo : hi) = mid;
  }
  a.params = lo;
  if (lo > 0) {
    PlanInput q = in;
    q.state.params = lo;
    const checkpoint::ShardPlan sh = checkpoint::shard(q.state, q.par);
    a.bytes = static_cast<double>(sh.total_bytes);
    a.save_time = save_time(lo);
    a.training_state_per_gpu = training_state_per_gpu(q, sh);
  }
  return a;
}

}  // namespace iowall::plan
