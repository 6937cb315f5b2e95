// A phase's time from a node's simulation (PlanInput::node_sim): each simulated phase of
// one rank, scaled by the busiest rank's bytes over the bytes each GPU moved in the
// simulation (every GPU of the node was busy there, as in a checkpoint where all save).
// Consecutive phases that use the same resource class form one stage: the copy engine
// (d2h, h2d), the rank's CPU pass (buffered serialize_write), the storage (writes, fsync,
// reads; for gds and bounce, the whole write); stages run one after another, as the
// simulated workload's phases do. A hand flag replaces the stage it stands for
// (NodeOverrides); the storage target's client ceiling bounds the storage stage.
#pragma once
#include "sim/plan/io_time.hpp"

namespace iowall::plan {

Phase node_transfer(const PlanInput& in, const RankLoad& load, Direction dir, const Stages& st);

}  // namespace iowall::plan
