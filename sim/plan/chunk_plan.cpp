// The chunk-level fidelity of the checkpoint planner, for a small described cluster:
// the storage transfer is the simulator's own run of the whole cluster built device by
// device (sim/plan/cluster_topology.hpp): every writing GPU moves its bytes over NVMe-oF
// RDMA (GPUDirect into HBM for gds, a host bounce buffer otherwise) through its paired
// NIC, its leaf, the spine and a storage server's NIC into the servers' drives, striped
// over all of them, I/O by I/O and chunk by chunk. The copy stages and the barrier keep
// their closed forms, as at flow fidelity, so the two fidelities differ only where the
// chunk simulation sees what flows do not (queues, per-I/O latencies, PCIe inside the
// nodes and servers).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/plan/checkpoint_planner.hpp"
#include "sim/plan/cluster_topology.hpp"
#include "sim/plan/flow_plan.hpp"
#include "sim/plan/io_time.hpp"
#include "sim/plan/restore_mode.hpp"
#include "sim/run/runner.hpp"

namespace iowall::plan {

namespace {

// Every writing rank moves the same bytes (the simulator's workload has one size per
// target): the shards may differ by rounding only.
std::int64_t common_rank_bytes(const std::vector<std::int64_t>& rank_bytes) {
  std::int64_t lo = INT64_MAX, hi = 0;
  for (const std::int64_t b : rank_bytes)
    if (b > 0) lo = std::min(lo, b), hi = std::max(hi, b);
  if (hi == 0) return 0;
  if (static_cast<double>(hi - lo) > 0.01 * static_cast<double>(hi))
    throw InputError("", "--fidelity",
                     fmt::format("chunk fidelity gives every writing GPU one size, but this plan's ranks move {} to {} "
                                 "(use --fidelity flow)",
                                 to_string(Bytes(lo)), to_string(Bytes(hi))));
  return hi;
}

std::string joined(const std::vector<std::string>& ids) { return fmt::format("{}", fmt::join(ids, ",")); }

}  // namespace

Phase chunk_transfer(const PlanInput& in, const std::vector<std::int64_t>& rank_bytes, Direction dir, const Stages& st) {
  Stages other = st;
  other.io = false;
  Phase ph = transfer(in, rank_load(rank_bytes, in.par.gpus_per_node), dir, other);
  if (!st.io) return ph;
  if (!in.cluster)
    throw InputError("", "--fidelity",
                     "chunk fidelity simulates a described cluster device by device: give --cluster (--node simulates "
                     "one node at chunk fidelity for the other fidelities)");
  const ClusterTopology ct = cluster_topology(*in.cluster, "--fidelity");
  const std::int64_t bytes = common_rank_bytes(rank_bytes);
  if (bytes == 0) return ph;
  std::vector<std::string> targets;
  for (std::size_t r = 0; r < rank_bytes.size(); ++r)
    if (rank_bytes[r] > 0) targets.push_back(ct.rank_gpus[r]);
  const bool save = dir == Direction::save;
  // 1 MiB I/Os, 8 in flight per GPU: a GDS or FastPersist writer's queue, deep enough
  // to keep 400 Gb/s busy across the fabric's round trip (50 GB/s x 20 us = 1 MB).
  const Json scenario = {
      {"name", fmt::format("{}-chunk-{}", in.cluster->name, save ? "save" : "restore")},
      {"description", "the storage transfer of iowall plan checkpoint --fidelity chunk"},
      {"topology", ct.topology},
      {"fidelity", "chunk"},
      {"workload",
       {{"kind", save ? "sequential_write" : "sequential_read"},
        {"size", fmt::format("{} B", bytes)},
        {"io_size", "1 MiB"},
        {"qd", 8},
        {"targets", joined(targets)},
        {"storage", joined(ct.drives)}}},
      {"paths", Json::array({{{"name", "nvmeof_rdma"}, {"nic", "paired"}, {"buffer", st.io_via_gpu ? "gpu" : "host"}}})}};
  const RunResult run = run_scenario(parse_scenario_text(scenario.dump(), "--fidelity chunk"));
  const PathMetrics& m = run.paths.front().metrics;
  const std::string bound = m.limited_by ? m.limited_by->resource : std::string("the storage transfer");
  return with_storage_io(std::move(ph), m.first_done_s, m.last_done_s,
                         static_cast<double>(bytes) * static_cast<double>(targets.size()), in.storage.file_latency,
                         "chunk-level storage I/O through the cluster (last rank)", bound + " (chunk)");
}

PlanResult plan_chunk(const PlanInput& in) {
  const checkpoint::ShardPlan sh = checkpoint::shard(in.state, in.par);
  return plan_with(in, sh, [&](Direction dir, const Stages& st) {
    return chunk_transfer(in, dir == Direction::save ? sh.save_bytes : restore_read_bytes(in.restore, sh), dir, st);
  });
}

namespace {
const bool chunk_registered = [] {
  register_solver("chunk", plan_chunk);
  return true;
}();
}  // namespace

}  // namespace iowall::plan
