// The second half of a read-once restore (sim/plan/restore_mode.hpp): once every byte
// has been read by the rank that wrote it, each rank receives the replicated state it
// holds but did not read, over its link into the compute fabric.
//
// Cost model. Large broadcasts go as a pipelined ring (or chain) in chunks, as NCCL runs
// them: every rank receives each byte once and forwards it once, so on full-duplex links
// the time tends to bytes / link bandwidth whatever the number of replicas (NCCL's
// performance notes: for broadcast the bus bandwidth equals the algorithm bandwidth,
// size / time; van de Geijn's scatter + allgather reaches the same bound). Ranks that read
// a 1/dp share each (--replicated spread) gather the rest: an all-gather, each receiving
// (dp - 1)/dp of the shard, at the same cost per byte. So a rank is done `unwritten bytes
// / fabric_bw` after the read; the slowest rank receives ShardPlan::rank_unwritten_max.
// Each GPU has its own fabric link (NodeSpec::fabric_bw: one 400 Gb/s NIC per GPU on a
// DGX H100, or a described cluster's node NICs shared by its GPUs). The fabric above the
// NICs is non-blocking, as in every closed form here: a ring ordered by node crosses into
// and out of a leaf once per group, so a leaf's uplinks carry a 1/(the group's members
// under the leaf) share of what its down ports carry, below the down ports' load unless
// a leaf holds fewer of a group's members than its oversubscription. Replicas on one
// node would use NVLink (faster: the bound is an upper one); the pipeline's fill (a few
// chunks per hop, microseconds) is left out. The broadcast starts after the read (no overlap): read +
// broadcast, an upper bound that chunks broadcast as they arrive would bring towards the
// larger of the two.
#pragma once

#include "sim/plan/plan_types.hpp"

namespace iowall::plan {

// Adds the broadcast to `restore`, the storage read's phase (its last-done, first-done,
// a bound named for it, and the bottleneck when the broadcast is the longer part).
void add_broadcast(const PlanInput& in, const checkpoint::ShardPlan& shards, Phase& restore);

}  // namespace iowall::plan
