// Cluster descriptions and the planner's flow fidelity over their routes: the derived
// fabric, agreement with the closed forms where the fabric does not bind, the leaf
// uplinks as the bound when oversubscribed, ECMP determinism, and bad descriptions.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/plan/checkpoint_planner.hpp"
#include "sim/plan/cluster_levers.hpp"
#include "sim/plan/cluster.hpp"
#include "sim/plan/plan_request.hpp"

using namespace iowall::plan;
using nlohmann::json;

namespace {
// dgx-h100 nodes (8 GPUs, 8 NICs) at 400 Gb/s, storage servers of 2 x 400 Gb/s ports and
// 4 drives of 2 GB/s write: 8 GB/s a server, far below the fabric.
json cluster(int nodes, const std::string& kind = "fat_tree", double oversubscription = 1, int servers = 4) {
  return {{"name", "t"},
          {"nodes", {{"topology", "dgx-h100"}, {"count", nodes}, {"nic", "400 Gb/s"}}},
          {"fabric", {{"kind", kind}, {"nodes_per_leaf", 4}, {"link", "400 Gb/s"}, {"oversubscription", oversubscription}}},
          {"storage",
           {{"kind", "nvme-of"},
            {"servers", servers},
            {"servers_per_leaf", 2},
            {"server", {{"nics", 2}, {"nic", "400 Gb/s"}, {"drives", 4}, {"drive_write", "2 GB/s"}, {"drive_read", "4 GB/s"}}}}}};
}
json plan(const json& c, const std::string& fidelity) {
  return {{"cluster", c}, {"checkpoint_size", "2 TB"}, {"path", "gds"}, {"tp", 8}, {"replicated", "spread"},
          {"fidelity", fidelity}, {"barrier", "0 s"}};
}
PlanResult solve_plan(const json& settings) {
  const PlanRequest q = request_from_settings(settings, {});
  return solve(q.input, q.fidelity);
}
std::string error_of(const json& c) {
  try {
    request_from_settings(plan(c, "flow"), {});
  } catch (const iowall::InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("a cluster description derives its fabric and storage ceilings", "[plan][cluster]") {
  const ClusterSpec c = cluster_from_json(cluster(16, "rail_optimized", 2), "t.json", "");
  CHECK(c.nodes.gpus == 8);  // counted in topologies/dgx-h100.json
  CHECK(c.nodes.nics == 8);
  CHECK(c.gpus() == 128);
  // Rail-optimized: one leaf per 4 nodes per rail, 4 down ports each, 4 / 2 = 2 uplinks.
  CHECK(c.fabric.rails == 8);
  CHECK(c.fabric.compute_leaves == 8 * 4);
  CHECK(c.fabric.down_ports == 4);
  CHECK(c.fabric.uplinks == 2);
  // A plain fat-tree puts all 8 NICs of 4 nodes on one leaf: 32 down ports.
  CHECK(cluster_from_json(cluster(16), "t.json", "").fabric.down_ports == 32);
  // Servers: min(2 x 50 GB/s, 4 x 2 GB/s) = 8 GB/s write, min(100, 16) = 16 GB/s read.
  CHECK(c.storage.server_write_bw() == Approx(8e9));
  CHECK(c.storage_write_ceiling() == Approx(32e9));
  CHECK(c.storage_read_ceiling() == Approx(64e9));
}

TEST_CASE("flow over a symmetric, non-blocking cluster agrees with the closed forms within 5%", "[plan][cluster]") {
  // 16 nodes, 128 writers of 2 TB / 128 each; the 4 servers' drives (32 GB/s) bind far
  // below the fabric (every leaf's 32 x 50 GB/s uplinks), so both fidelities see
  // 2 TB / 32 GB/s = 62.5 s plus the same fixed costs.
  const PlanResult a = solve_plan(plan(cluster(16), "analytical"));
  const PlanResult f = solve_plan(plan(cluster(16), "flow"));
  INFO("analytical " << a.save.last_done << " s, flow " << f.save.last_done << " s");
  CHECK(a.save.last_done == Approx(2e12 / 32e9).epsilon(0.05));
  CHECK(f.save.last_done == Approx(a.save.last_done).epsilon(0.05));
  CHECK(f.save.bottleneck == "storage server drives (flow)");
  CHECK(f.restore.last_done == Approx(a.restore.last_done).epsilon(0.05));
}

TEST_CASE("oversubscribed leaves bind the save at the leaf uplinks", "[plan][cluster]") {
  // Fast storage (64 servers x 8 GB/s = 512 GB/s) and 16 nodes under 4 leaves of 32 down
  // ports; oversubscription 16 leaves 2 uplinks of 50 GB/s per leaf: 400 GB/s for all four.
  // Each leaf carries a quarter of 2 TB through 100 GB/s: at least 5 s; ECMP per flow puts
  // unequal numbers of flows on the two uplinks, so the slower one takes longer.
  const PlanResult f = solve_plan(plan(cluster(16, "fat_tree", 16, 64), "flow"));
  const double bound = 2e12 / 4 / (2 * 50e9);
  INFO("flow " << f.save.last_done << " s against " << bound);
  CHECK(f.save.last_done >= bound);
  CHECK(f.save.last_done <= 2 * bound);
  CHECK(f.save.bottleneck == "leaf uplink (flow)");
  // Non-blocking (32 uplinks a leaf), the same cluster is bound by the servers' drives:
  // 2 TB / 512 GB/s = 3.9 s.
  const PlanResult open = solve_plan(plan(cluster(16, "fat_tree", 1, 64), "flow"));
  CHECK(open.save.last_done == Approx(2e12 / 512e9).epsilon(0.02));
  CHECK(open.save.bottleneck == "storage server drives (flow)");
}

TEST_CASE("the cluster flow plan is deterministic (ECMP by a fixed hash)", "[plan][cluster]") {
  const PlanResult a = solve_plan(plan(cluster(16, "rail_optimized", 4, 64), "flow"));
  const PlanResult b = solve_plan(plan(cluster(16, "rail_optimized", 4, 64), "flow"));
  CHECK(a.save.last_done == b.save.last_done);
  CHECK(a.restore.last_done == b.restore.last_done);
  CHECK(ecmp_hash(1) != ecmp_hash(2));
}

TEST_CASE("bad cluster descriptions name their pointer", "[plan][cluster]") {
  json c = cluster(4);
  c["nodes"]["topology"] = "no-such-node";
  CHECK_THAT(error_of(c), Catch::Contains("/plan/cluster/nodes/topology") || Catch::Contains("/nodes/topology"));
  c = cluster(4);
  c["fabric"]["oversubscription"] = 0.5;
  CHECK_THAT(error_of(c), Catch::Contains("/fabric/oversubscription") && Catch::Contains("below 1"));
  c = cluster(4);
  c["nodes"]["nics"] = 9;
  CHECK_THAT(error_of(c), Catch::Contains("/nodes/nics") && Catch::Contains("more than the 8 NICs"));
  c = cluster(4);
  c["fabric"]["kind"] = "torus";
  CHECK_THAT(error_of(c), Catch::Contains("/fabric/kind"));
  c = cluster(4);
  c["storage"]["server"]["nic"] = 400;
  CHECK_THAT(error_of(c), Catch::Contains("/storage/server/nic") && Catch::Contains("bare number"));
  // A cluster and a flag that contradicts it.
  json p = plan(cluster(4), "flow");
  p["storage_bw"] = "1 TB/s";
  CHECK_THROWS_WITH(request_from_settings(p, {}), Catch::Contains("storage_bw") && Catch::Contains("cluster"));
  p = plan(cluster(4), "flow");
  p["gpus"] = 64;  // 4 nodes x 8 GPUs = 32
  CHECK_THROWS_WITH(request_from_settings(p, {}), Catch::Contains("the cluster t has 32"));
}

TEST_CASE("purchase levers move the answer where the part binds", "[plan][cluster][levers]") {
  // Drive-bound (4 servers x 4 drives x 2 GB/s = 32 GB/s): a fifth drive in every server
  // makes 40 GB/s, so the save's I/O drops from 2 TB / 32 GB/s = 62.5 s to 2 TB / 40 GB/s
  // = 50 s: 12.5 s for 4 drives, 3.125 s per drive. A fifth server: files go round-robin,
  // so the busiest of five servers holds ceil(128 / 5) = 26 ranks' 15.625 GB at 8 GB/s,
  // 50.78 s: 11.72 s for one server. A third NIC port per server changes nothing (ports
  // give 100 GB/s a server already). Non-blocking leaves: no uplink lever.
  json p = plan(cluster(16), "flow");
  p["levers"] = true;
  const PlanRequest q = request_from_settings(p, {});
  const PlanResult base = solve(q.input, q.fidelity);
  const std::vector<Lever> levers = purchase_levers(q.input, q.fidelity, base);
  REQUIRE(levers.size() == 3);
  CHECK(levers[0].name == "one more storage server");
  CHECK(levers[0].save_saved_s == Approx(62.5 - 26 * 15.625 / 8).epsilon(0.02));
  CHECK(levers[1].name == "one more drive in every server");
  CHECK(levers[1].units == 4);
  CHECK(levers[1].save_saved_per_unit_s == Approx(3.125).epsilon(0.02));
  CHECK(levers[2].name == "one more NIC port in every server");
  CHECK(levers[2].save_saved_s == Approx(0).margin(1e-6));
  SECTION("oversubscribed leaves: an uplink per leaf is the lever that pays") {
    // The leaf-bound cluster of the test above (2 uplinks a leaf, 4 leaves): a third uplink
    // per leaf (4 uplinks bought) cuts the leaf-bound time by about a third.
    json o = plan(cluster(16, "fat_tree", 16, 64), "flow");
    o["levers"] = true;
    const PlanRequest qo = request_from_settings(o, {});
    const PlanResult bo = solve(qo.input, qo.fidelity);
    const std::vector<Lever> lo = purchase_levers(qo.input, qo.fidelity, bo);
    REQUIRE(lo.size() == 4);
    CHECK(lo[0].name == "one more uplink on every compute leaf");
    CHECK(lo[0].units == 4);
    CHECK(lo[0].save_saved_s > 0.2 * bo.save.last_done);
  }
  SECTION("levers without a cluster are refused") {
    json n = {{"gpus", 64}, {"checkpoint_size", "1 TB"}, {"levers", true}};
    CHECK_THROWS_WITH(request_from_settings(n, {}), Catch::Contains("levers") && Catch::Contains("--cluster"));
  }
}
