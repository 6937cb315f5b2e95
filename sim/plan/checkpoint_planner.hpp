// The analytical checkpoint planner: PlanInput -> PlanResult in closed form, plus the
// inverse questions (storage bandwidth for a target overhead, largest model for a
// window). Other fidelities answer the same PlanInput through register_solver.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "sim/plan/io_time.hpp"
#include "sim/plan/plan_types.hpp"

namespace iowall::plan {

// Throws InputError for impossible input (parallelism, MTTF, capacity, host memory).
PlanResult plan_checkpoint(const PlanInput& in);
// The same, with the shard plan (and its per-phase loads) computed once by the caller,
// for sweeps and searches that change only bandwidths.
struct PhaseLoads {
  RankLoad save, restore;
};
PhaseLoads phase_loads(const PlanInput& in, const checkpoint::ShardPlan& shards);
PlanResult plan_with(const PlanInput& in, const checkpoint::ShardPlan& shards);
PlanResult plan_with(const PlanInput& in, const checkpoint::ShardPlan& shards, const PhaseLoads& loads);
// The same with each phase's time from `phase` (another fidelity's transfer model).
using PhaseFn = std::function<Phase(Direction, const Stages&)>;
PlanResult plan_with(const PlanInput& in, const checkpoint::ShardPlan& shards, const PhaseFn& phase);

// Fidelity dispatch: "analytical" is built in; a flow-level simulator registers "flow".
using Solver = std::function<PlanResult(const PlanInput&)>;
void register_solver(const std::string& fidelity, Solver solver);
// Throws InputError (option --fidelity) when no solver of that name is registered.
PlanResult solve(const PlanInput& in, const std::string& fidelity);

// The aggregate storage write bandwidth (reads scaled with it) at which the overhead
// (1 - availability) equals `target`; for local NVMe, the per-node bandwidth. Empty
// when even unlimited storage bandwidth misses the target (the floor says by how much).
struct BandwidthAnswer {
  std::optional<double> bandwidth;  // B/s
  bool per_node = false;            // local targets: the answer is per node
  double floor_overhead = 0;        // overhead with unlimited storage bandwidth
  std::string floor_bottleneck;     // what limits it then
  double units = 0;                 // servers (or SSDs per node) at server_write_bw
};
BandwidthAnswer bandwidth_for_overhead(const PlanInput& in, double target);
// Applies an aggregate (or per-node) write bandwidth to the input, scaling reads alike.
PlanInput with_storage_bandwidth(PlanInput in, double bw);

// The largest parameter count whose save (last-done; the flush for async) fits `window`.
struct WindowAnswer {
  std::int64_t params = 0;
  double bytes = 0;
  double save_time = 0;
  double training_state_per_gpu = 0;
};
WindowAnswer largest_model_for_window(const PlanInput& in, double window);

}  // namespace iowall::plan
