// The flow-level fidelity of the checkpoint planner: the storage transfer of every
// rank is a flow through its GPU link (GDS) or host memory (bounce), its node's
// storage link, its leaf's uplink, one storage server and the system's aggregate,
// shared max-min fairly and simulated completion by completion. The stages before
// and after it (copy engine, CPU copies) keep their closed forms.
#pragma once
#include "sim/plan/checkpoint_planner.hpp"

namespace iowall::plan {

// The phase of the closed-form stages (copies, barrier) with a simulated storage transfer
// on top, after the per-file latency: `term` names the transfer among the phase's bounds,
// `bottleneck` what bound it (when the transfer is the longest term). Flow and chunk
// fidelity both finish their phases here.
Phase with_storage_io(Phase ph, double first_done, double last_done, double bytes, double file_latency,
                      const std::string& term, const std::string& bottleneck);
// One phase at flow fidelity from per-rank bytes.
Phase flow_transfer(const PlanInput& in, const std::vector<std::int64_t>& rank_bytes, Direction dir, const Stages& st);
PlanResult plan_flow(const PlanInput& in);

}  // namespace iowall::plan
