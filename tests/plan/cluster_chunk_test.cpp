// The planner's fidelities cross-checked on two-node clusters: the flow fidelity (every
// rank a flow along its route) against the chunk fidelity (the cluster built device by
// device and simulated I/O by I/O: sim/plan/cluster_topology.hpp), and the generated
// topology itself. One spine plane, so that the chunk simulator's shortest-path routes
// are the flow planner's routes (ECMP over several planes is a per-flow hash there).
#include <catch2/catch.hpp>

#include <set>

#include "sim/core/error.hpp"
#include "sim/plan/checkpoint_planner.hpp"
#include "sim/plan/cluster.hpp"
#include "sim/plan/cluster_topology.hpp"
#include "sim/plan/plan_request.hpp"

using namespace iowall::plan;
using nlohmann::json;

namespace {
// Two dgx-h100 nodes (8 GPUs, 8 ConnectX-7 each) at 400 Gb/s.
json two_nodes(const std::string& kind, double oversubscription, int servers, int nics, int drives) {
  return {{"name", "two"},
          {"nodes", {{"topology", "dgx-h100"}, {"count", 2}, {"nic", "400 Gb/s"}}},
          {"fabric", {{"kind", kind}, {"nodes_per_leaf", 2}, {"link", "400 Gb/s"}, {"oversubscription", oversubscription}}},
          {"storage",
           {{"kind", "nvme-of"},
            {"servers", servers},
            {"servers_per_leaf", 2},
            {"server",
             {{"nics", nics}, {"nic", "400 Gb/s"}, {"drives", drives}, {"drive_write", "6 GB/s"}, {"drive_read", "13 GB/s"}}}}}};
}
PlanResult solve_at(const json& cluster, const std::string& size, const std::string& path, const std::string& fidelity) {
  const json settings = {{"cluster", cluster}, {"checkpoint_size", size}, {"path", path}, {"tp", 8},
                         {"replicated", "spread"}, {"fidelity", fidelity}, {"barrier", "0 s"}};
  const PlanRequest q = request_from_settings(settings, {});
  return solve(q.input, q.fidelity);
}
}  // namespace

TEST_CASE("flow within 5% of chunk on a two-node cluster whose leaf uplink binds", "[plan][cluster][fidelity]") {
  // A plain fat-tree: both nodes' 16 NICs (800 GB/s) under one leaf with oversubscription
  // 16, so one 400 Gb/s uplink (50 GB/s) to the spine; 2 servers x 2 ports x 50 GB/s and
  // 16 drives x 6 GB/s = 96 GB/s behind it. The uplink binds: 16 GB / 50 GB/s = 320 ms
  // for the save, 32 GB (every replica reads all) / 50 GB/s = 640 ms for the restore.
  const json c = two_nodes("fat_tree", 16, 2, 2, 8);
  const PlanResult f = solve_at(c, "16 GB", "gds", "flow");
  const PlanResult k = solve_at(c, "16 GB", "gds", "chunk");
  INFO("save: flow " << f.save.last_done << " s, chunk " << k.save.last_done << " s; restore: flow "
                     << f.restore.last_done << " s, chunk " << k.restore.last_done << " s");
  CHECK(f.save.last_done == Approx(16e9 / 50e9).epsilon(0.02));
  CHECK(k.save.last_done == Approx(f.save.last_done).epsilon(0.05));
  CHECK(k.restore.last_done == Approx(f.restore.last_done).epsilon(0.05));
  CHECK(f.save.bottleneck == "leaf uplink (flow)");
  // The chunk simulation names the link between the leaf and the spine.
  CHECK(k.save.bottleneck.find("leaf0") != std::string::npos);
  CHECK(k.save.bottleneck.find("spine") != std::string::npos);
}

TEST_CASE("flow within 5% of chunk on a rail-optimized two-node cluster whose drives bind", "[plan][cluster][fidelity]") {
  // Rail-optimized: 8 rail leaves of 2 down ports, oversubscription 2: one uplink each
  // (8 x 50 GB/s to the spine). One server, 4 ports (200 GB/s), 6 drives: 36 GB/s write,
  // 78 GB/s read bind. Save 8 GB / 36 GB/s = 222 ms; the bounce path adds the host copy.
  const json c = two_nodes("rail_optimized", 2, 1, 4, 6);
  for (const std::string path : {"gds", "bounce"}) {
    const PlanResult f = solve_at(c, "8 GB", path, "flow");
    const PlanResult k = solve_at(c, "8 GB", path, "chunk");
    INFO(path << " save: flow " << f.save.last_done << " s, chunk " << k.save.last_done << " s; restore: flow "
              << f.restore.last_done << " s, chunk " << k.restore.last_done << " s");
    CHECK(k.save.last_done == Approx(f.save.last_done).epsilon(0.05));
    CHECK(k.restore.last_done == Approx(f.restore.last_done).epsilon(0.05));
    CHECK(f.save.bottleneck == "storage server drives (flow)");
    CHECK(k.save.bottleneck.find("s0_nvme") != std::string::npos);
  }
  CHECK(solve_at(c, "8 GB", "gds", "flow").save.last_done == Approx(8e9 / 36e9).epsilon(0.02));
}

TEST_CASE("a cluster's chunk topology places NICs on their rails and drives under their servers", "[plan][cluster]") {
  const ClusterSpec c = cluster_from_json(two_nodes("rail_optimized", 2, 1, 4, 6), "t.json", "");
  const ClusterTopology t = cluster_topology(c, "--fidelity");
  REQUIRE(t.rank_gpus.size() == 16);
  CHECK(t.rank_gpus[0] == "n0_gpu0");
  CHECK(t.rank_gpus[9] == "n1_gpu1");
  CHECK(t.drives.size() == 6);
  // NIC i of node n on rail i's leaf: leaf i (one leaf per rail for two nodes).
  std::set<std::string> cabled;
  for (const json& l : t.topology["links"])
    if (l.contains("ethernet") && l["a"].get<std::string>().rfind("n1_nic3.", 0) == 0) cabled.insert(l["b"].get<std::string>());
  CHECK(cabled == std::set<std::string>{"leaf3.p1"});
}

TEST_CASE("chunk fidelity refuses what it cannot build", "[plan][cluster][errors]") {
  // No cluster: nothing to build.
  const json plain = {{"gpus", 16}, {"checkpoint_size", "16 GB"}, {"fidelity", "chunk"}};
  CHECK_THROWS_WITH(solve(request_from_settings(plain, {}).input, "chunk"),
                    Catch::Contains("--fidelity") && Catch::Contains("give --cluster"));
  // 40 nodes x 8 GPUs = 320 GPUs: past the limit.
  json big = two_nodes("fat_tree", 1, 1, 2, 4);
  big["nodes"]["count"] = 40;
  CHECK_THROWS_WITH(solve_at(big, "16 GB", "gds", "chunk"), Catch::Contains("at most 256"));
}
