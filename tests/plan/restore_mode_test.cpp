// Restore modes of the planner (`--restore`): read-all re-reads the replicated state once
// per data-parallel replica; read-once-broadcast reads every byte once and broadcasts the
// replicated state over the compute fabric. Bytes read and times against hand-derived
// bounds (sim/plan/restore_broadcast.hpp has the broadcast's cost model).
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/plan/checkpoint_planner.hpp"
#include "sim/plan/plan_request.hpp"

using namespace iowall::plan;
using nlohmann::json;

namespace {

// 70e9 params x 14 B (bf16 + Adam) = 980 GB; 1024 GPUs, tp 8 x pp 4 = 32 groups, dp 32;
// ZeRO-0: every replica holds its group's whole shard, 70e9 / 32 x 14 B = 30.625 GB.
// NVMe-oF at 1 TB/s aggregate (reads as writes), 100 GB/s per node (the preset's 2 x 400
// Gb/s), GDS over a 55.63 GB/s PCIe link per GPU, 50 GB/s of compute fabric per GPU.
json zero0(const std::string& restore) {
  json s = {{"params", "70e9"}, {"gpus", 1024}, {"tp", 8}, {"pp", 4}, {"zero", 0}, {"storage_bw", "1 TB/s"}};
  if (!restore.empty()) s["restore"] = restore;
  return s;
}
PlanResult plan(const json& s) { return plan_checkpoint(request_from_settings(s, {}).input); }

constexpr double kShard = 30.625e9;            // one group's state, bytes
constexpr double kDp = 32;
constexpr double kFixed1024 = 10 * 10e-6 + 1e-3;  // barrier over 1024 ranks (log2 = 10 rounds of 10 us) + file latency
constexpr double kFixed32 = 5 * 10e-6 + 1e-3;     // barrier over the 32 readers + file latency

}  // namespace

TEST_CASE("read-once-broadcast reads the checkpoint once: dp times fewer bytes than read-all", "[plan][restore]") {
  const PlanResult all = plan(zero0("read-all")), once = plan(zero0("read-once-broadcast"));
  // Read-all: each of the 1024 ranks reads its group's 30.625 GB: 32 copies of 980 GB.
  CHECK(all.restore.bytes == Approx(1024 * kShard));
  CHECK(all.restore.bytes == Approx(kDp * all.total_bytes));
  // Read once: each byte by the rank that wrote it (DP rank 0 of each group): 980 GB.
  CHECK(once.restore.bytes == Approx(once.total_bytes));
  CHECK(all.restore.bytes / once.restore.bytes == Approx(kDp));
  // The save does not change.
  CHECK(once.save.last_done == all.save.last_done);
}

TEST_CASE("read-once-broadcast takes the read of one copy plus the broadcast, as derived", "[plan][restore]") {
  const PlanResult all = plan(zero0("read-all"));
  // Read-all: 31.36 TB over the 1 TB/s aggregate = 31.36 s (the node link, 8 x 30.625 GB
  // / 100 GB/s = 2.45 s, and the GPU link, 30.625 / 55.63 = 0.55 s, are shorter).
  CHECK(all.restore.last_done == Approx(1024 * kShard / 1e12 + kFixed1024).epsilon(1e-9));
  CHECK(all.restore.bottleneck == "storage system aggregate");

  // rank0 writers read back: 32 readers, DP rank 0 of each group, ranks tp + 8 dp + 256 pp
  // with dp = 0: eight on each of four nodes. Bounds: node link 8 x 30.625 GB / 100 GB/s
  // = 2.45 s; aggregate 980 GB / 1 TB/s = 0.98 s; GPU link 0.55 s: 2.45 s. Then each of the
  // other 31 replicas receives the 30.625 GB shard over its 50 GB/s fabric link: a
  // pipelined ring delivers it in 30.625 / 50 = 0.6125 s. Restore = 2.45 + 0.6125 + fixed.
  const PlanResult once = plan(zero0("read-once-broadcast"));
  const double read = 8 * kShard / 100e9, broadcast = kShard / 50e9;
  CHECK(once.restore.last_done == Approx(read + broadcast + kFixed32).epsilon(1e-9));
  CHECK(once.restore.bottleneck == "node storage link");
  bool named = false;
  for (const auto& t : once.restore.terms)
    if (t.name == "broadcast to the data-parallel replicas (compute fabric)") named = t.seconds == Approx(broadcast);
  CHECK(named);
  // The restore is part of every recovery: the availability rises.
  CHECK(once.recovery == Approx(all.recovery - all.restore.last_done + once.restore.last_done));
  CHECK(once.availability > all.availability);

  // spread writers read back their 1/32 share each: 30.625 GB / 32 = 957 MB per rank; the
  // aggregate bounds the read (0.98 s; the node link 8 x 957 MB / 100 GB/s = 77 ms). Then an
  // all-gather: each rank receives the other 31/32 of the shard, 29.67 GB / 50 GB/s.
  json spread = zero0("read-once-broadcast");
  spread["replicated"] = "spread";
  const PlanResult s = plan(spread);
  CHECK(s.restore.bytes == Approx(once.restore.bytes));
  CHECK(s.restore.last_done == Approx(980e9 / 1e12 + (kDp - 1) / kDp * kShard / 50e9 + kFixed1024).epsilon(1e-9));
  CHECK(s.restore.bottleneck == "storage system aggregate");

  // Half the fabric bandwidth, twice the broadcast.
  json slow = zero0("read-once-broadcast");
  slow["gpu_fabric_bw"] = "25 GB/s";
  CHECK(plan(slow).restore.last_done == Approx(once.restore.last_done + broadcast).epsilon(1e-9));
}

TEST_CASE("with nothing replicated the restore modes agree, and read-all is the default", "[plan][restore]") {
  // ZeRO-3 shards everything over the replicas; one replica (dp 1) has no one to send to.
  for (const json& change : {json{{"zero", 3}}, json{{"pp", 128}}}) {
    json all = zero0("read-all"), once = zero0("read-once-broadcast");
    all.update(change);
    once.update(change);
    INFO(change.dump());
    const PlanResult a = plan(all), o = plan(once);
    CHECK(a.restore.bytes == o.restore.bytes);
    CHECK(a.restore.last_done == o.restore.last_done);
    CHECK(a.restore.first_done == o.restore.first_done);
  }
  const PlanResult none = plan(zero0("")), all = plan(zero0("read-all"));
  CHECK(none.restore.last_done == all.restore.last_done);
  CHECK(none.restore.bytes == all.restore.bytes);
  CHECK(none.availability == all.availability);
}

TEST_CASE("over a described cluster the broadcast runs at the nodes' NICs shared by their GPUs", "[plan][restore][cluster]") {
  // 16 dgx-h100 nodes (8 GPUs, 8 NICs) at 200 Gb/s: 25 GB/s per GPU. 16e9 params, tp 8:
  // 8 groups of 2e9 params, dp 16, ZeRO-1: every replica holds its group's 4 GB of bf16
  // weights, DP rank 0 wrote them, the 15 others receive 4 GB each: 4e9 / 25e9 = 0.16 s.
  const json cluster = {
      {"name", "t"},
      {"nodes", {{"topology", "dgx-h100"}, {"count", 16}, {"nic", "200 Gb/s"}}},
      {"fabric", {{"kind", "rail_optimized"}, {"nodes_per_leaf", 4}, {"link", "400 Gb/s"}, {"oversubscription", 1}}},
      {"storage",
       {{"kind", "pfs"},
        {"servers", 4},
        {"servers_per_leaf", 2},
        {"server", {{"nics", 2}, {"nic", "400 Gb/s"}, {"drives", 8}, {"drive_write", "6 GB/s"}, {"drive_read", "13 GB/s"}}}}}};
  json s = {{"cluster", cluster}, {"params", "16e9"}, {"tp", 8}, {"zero", 1}, {"restore", "read-once-broadcast"}};
  const PlanRequest q = request_from_settings(s, {});
  CHECK(q.input.node.fabric_bw == Approx(25e9));
  const PlanResult r = plan_checkpoint(q.input);
  double broadcast = -1;
  for (const auto& t : r.restore.terms)
    if (t.name == "broadcast to the data-parallel replicas (compute fabric)") broadcast = t.seconds;
  CHECK(broadcast == Approx(4e9 / 25e9));
  // The description sets the fabric: a flag may not say otherwise.
  s["gpu_fabric_bw"] = "100 GB/s";
  try {
    request_from_settings(s, {});
    FAIL("no error");
  } catch (const iowall::InputError& e) {
    CHECK(e.pointer().find("fabric") != std::string::npos);
    CHECK(e.message().find("the cluster description sets this") != std::string::npos);
  }
}

TEST_CASE("an unknown restore mode names the option and the close name", "[plan][restore][errors]") {
  try {
    plan(zero0("read-once-brodcast"));
    FAIL("no error");
  } catch (const iowall::InputError& e) {
    CHECK(e.pointer() == "--restore");
    CHECK(e.message().find("did you mean \"read-once-broadcast\"") != std::string::npos);
  }
}
