// `iowall plan checkpoint --node`: save and restore rates from one node's simulation,
// bounded by the node's drives; hand flags override the simulated phase they stand for;
// bad --node input is one line and exit code 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/plan/checkpoint_planner.hpp"
#include "sim/plan/checkpoint_state.hpp"
#include "sim/plan/node_rates.hpp"
#include "sim/plan/plan_request.hpp"
#include "tests/support/run_iowall.hpp"

using namespace iowall::plan;
using nlohmann::json;

namespace {
PlanRequest req(json s) { return request_from_settings(s, {}); }
json node_plan(const std::string& path) {
  return {{"params", "8B"}, {"gpus", 8}, {"node", "gpu-machine-h200"}, {"path", path}};
}
}  // namespace

TEST_CASE("plan --node: every path's save and restore are bounded by the node's drive", "[plan][node]") {
  // topologies/gpu-machine-h200.json has one drive, disk0, whose lumped media programs at
  // most 4.31 GB/s and reads at most 3.54 GB/s. Every path's file lives on it, and a save
  // is done when durable (fsync after the last write reaches the media: the drive has no
  // write cache), so no path saves the node's bytes faster than 4.31 GB/s, nor restores
  // them faster than 3.54 GB/s; the planner's phases scale the simulated ones by the rank's
  // bytes and add the barrier and file latency, so they are bounded alike.
  const double write_bw = 4.31e9, read_bw = 3.54e9;
  for (const std::string path : {"buffered", "bounce", "gds"}) {
    INFO(path);
    const PlanRequest q = req(node_plan(path));
    REQUIRE(q.input.node_sim);
    const NodeSimulation& ns = *q.input.node_sim;
    CHECK(ns.gpus == 1);
    CHECK(q.input.par.gpus_per_node == 1);
    const double node_bytes = ns.rank_bytes * ns.gpus;
    CHECK(node_bytes / ns.save_s <= write_bw * 1.0001);
    CHECK(node_bytes / ns.restore_s <= read_bw * 1.0001);
    const PlanResult r = plan_checkpoint(q.input);
    CHECK(r.rank_max_bytes / r.save.last_done <= write_bw * 1.0001);
    CHECK(r.rank_max_bytes / r.restore.last_done <= read_bw * 1.0001);
    CHECK(r.save.bottleneck.find("on gpu-machine-h200 (simulated") != std::string::npos);
    CHECK(r.restore.bottleneck.find("on gpu-machine-h200 (simulated") != std::string::npos);
  }
}

TEST_CASE("plan --node: the buffered save is slower than O_DIRECT and GDS, and bound by the rank's thread",
          "[plan][node]") {
  const PlanResult buffered = plan_checkpoint(req(node_plan("buffered")).input);
  const PlanResult bounce = plan_checkpoint(req(node_plan("bounce")).input);
  const PlanResult gds = plan_checkpoint(req(node_plan("gds")).input);
  CHECK(buffered.save.last_done > bounce.save.last_done);
  CHECK(buffered.save.last_done > gds.save.last_done);
  // Without a shape every tensor is taken as over glibc's 32 MiB mmap threshold: each save
  // copies into new memory, which faults in page by page on the rank's thread.
  CHECK(buffered.save.bottleneck.rfind("d2h on gpu-machine-h200", 0) == 0);
  // Tensors of 4 MiB find the memory the last save freed: torch.save's serializer (CRC-32
  // and write() into the page cache) is the rank's CPU work that bounds it.
  json small = node_plan("buffered");
  small["tensor_size"] = "4 MiB";
  CHECK(plan_checkpoint(req(small).input).save.bottleneck.rfind("serialize_write on gpu-machine-h200", 0) == 0);
}

TEST_CASE("plan --node: a periodic buffered save's new memory is the share of its bytes in tensors over 32 MiB",
          "[plan][node]") {
  // Llama 3 8B (h 4096, ffn 14336, 32 layers, 8 KV heads, vocabulary 128256), bf16 weights with
  // fp32 master and two moments: unsplit, every MLP matrix (117 MB bf16), q and o in fp32
  // (67 MB; 32 MiB exactly in bf16, kept) and the embedding and head are over 32 MiB: 94.7%
  // of the bytes. Split over tp 8 only the embedding and head are (131 MB bf16 a rank):
  // 2 x 525.3M of 8.03G parameters, 13.1%.
  const iowall::checkpoint::Architecture& a = *iowall::checkpoint::architecture("llama3-8b");
  iowall::checkpoint::StateSpec st;
  st.params = iowall::checkpoint::parameter_count(a);
  iowall::checkpoint::Parallelism one, eight;
  eight.gpus = eight.tp = 8;
  CHECK(iowall::checkpoint::share_above(a, st, one, kMallocReuseMax) == Approx(0.9474).epsilon(0.001));
  CHECK(iowall::checkpoint::share_above(a, st, eight, kMallocReuseMax) == Approx(0.1308).epsilon(0.001));
  // ZeRO-1 saves the optimizer's fp32 state as one flat partition a rank: all over 32 MiB.
  eight.tp = 1, eight.dp = 8, eight.zero = 1;
  CHECK(iowall::checkpoint::share_above(a, st, eight, kMallocReuseMax) > 12.0 / 14);

  // The plan's periodic save lies between the save into kept memory and the first save, by
  // that share, phase by phase.
  json s = {{"model", "llama3-8b"}, {"gpus", 8}, {"tp", 8}, {"node", "gpu-machine-h200"}, {"path", "buffered"}};
  const PlanInput in = req(s).input;
  CHECK(in.new_memory_share == Approx(0.1308).epsilon(0.001));
  const NodeSimulation& ns = *in.node_sim;
  const std::vector<NodePhase> periodic = periodic_save(ns, in.new_memory_share);
  REQUIRE(periodic.size() == ns.save.size());
  for (std::size_t i = 0; i < periodic.size(); ++i)
    CHECK(periodic[i].seconds == Approx(0.869 * ns.save[i].seconds + 0.131 * ns.first_save[i].seconds).epsilon(0.002));
  const auto r = iowall::testing::run_iowall(
      "plan checkpoint --model llama3-8b --gpus 8 --tp 8 --node gpu-machine-h200 --path buffered --output-format json");
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("/node/periodic_save/new_memory_share"_json_pointer).get<double>() == Approx(0.1308).epsilon(0.001));
  CHECK(j.at("/node/periodic_save/last_done_s"_json_pointer).get<double>() >
        j.at("/node/save/last_done_s"_json_pointer).get<double>());
  CHECK(j.at("/node/periodic_save/last_done_s"_json_pointer).get<double>() <
        j.at("/node/first_save/last_done_s"_json_pointer).get<double>());
  // The size applies to the buffered path on a node only.
  json gds = node_plan("gds");
  gds["tensor_size"] = "4 MiB";
  CHECK_THROWS_AS(req(gds), iowall::InputError);
}

TEST_CASE("plan --node: --save-memory kept or new sets the periodic save's memory whatever the tensors' size",
          "[plan][node]") {
  // kept: every block the last save freed is still mapped, so the periodic save is the save
  // into kept memory phase by phase; new: the process returns what a save frees (glibc trims
  // its heap), so every save is the first save. Both override --model's share (94.7% for
  // Llama 3 8B unsplit, above), and neither goes with --tensor-size, which only the allocator
  // rule reads.
  json kept = {{"model", "llama3-8b"}, {"gpus", 8}, {"node", "gpu-machine-h200"}, {"path", "buffered"}};
  json fresh = kept, alloc = kept;
  kept["save_memory"] = "kept";
  fresh["save_memory"] = "new";
  alloc["save_memory"] = "allocator";
  const PlanInput k = req(kept).input, n = req(fresh).input, a = req(alloc).input;
  CHECK(k.new_memory_share == 0);
  CHECK(n.new_memory_share == 1);
  CHECK(a.new_memory_share == Approx(0.9474).epsilon(0.001));
  const NodeSimulation& ns = *k.node_sim;
  const std::vector<NodePhase> pk = periodic_save(ns, k.new_memory_share), pn = periodic_save(ns, n.new_memory_share);
  REQUIRE(pk.size() == ns.save.size());
  REQUIRE(pn.size() == ns.first_save.size());
  for (std::size_t i = 0; i < pk.size(); ++i) {
    CHECK(pk[i].seconds == Approx(ns.save[i].seconds));
    CHECK(pn[i].seconds == Approx(ns.first_save[i].seconds));
  }
  // A word it does not know, --tensor-size beside kept or new, and any path but buffered
  // on a node are refused, each at its setting.
  json unknown = kept;
  unknown["save_memory"] = "trimmed";
  CHECK_THROWS_AS(req(unknown), iowall::InputError);
  json sized = fresh;
  sized["tensor_size"] = "4 MiB";
  CHECK_THROWS_WITH(req(sized), Catch::Contains("--save-memory allocator"));
  json gds = node_plan("gds");
  gds["save_memory"] = "new";
  CHECK_THROWS_AS(req(gds), iowall::InputError);
  const auto r = iowall::testing::run_iowall(
      "plan checkpoint --model llama3-8b --gpus 8 --node gpu-machine-h200 --path buffered --save-memory trimmed");
  CHECK(r.code == 2);
  CHECK(r.err.find("--save-memory") != std::string::npos);
}

TEST_CASE("plan --node: a process's first buffered save faults its copies into new memory, a periodic one does not",
          "[plan][node]") {
  const NodeSimulation& ns = *req(node_plan("buffered")).input.node_sim;
  REQUIRE(ns.first_save.size() == ns.save.size());
  auto seconds = [](const std::vector<NodePhase>& phases, const std::string& name) {
    for (const NodePhase& p : phases)
      if (p.name == name) return p.seconds;
    FAIL("no phase " << name);
    return 0.0;
  };
  // New memory costs each 4 KiB page a fault and its zeroing (cpu_socket's page_fault_cost
  // 1.27 us and page_zero_bandwidth 5.77 GB/s: 1.98 us a page) beside the staged copy, so the
  // first save's d2h exceeds the periodic one's by rank_bytes / 4096 x 1.98 us (0.52 s for the
  // 1 GiB sample); the serializer and the fsync do not see the difference.
  const double extra = ns.rank_bytes / 4096 * (1.27e-6 + 4096 / 5.77e9);
  CHECK(seconds(ns.first_save, "d2h") - seconds(ns.save, "d2h") == Approx(extra).epsilon(0.05));
  CHECK(seconds(ns.first_save, "serialize_write") == Approx(seconds(ns.save, "serialize_write")).epsilon(0.01));
  CHECK(seconds(ns.first_save, "fsync") == Approx(seconds(ns.save, "fsync")).epsilon(0.01));
  CHECK(ns.first_save_s - ns.save_s == Approx(extra).epsilon(0.05));
  // The other paths copy from pinned buffers or none: no first save of their own.
  for (const std::string path : {"bounce", "gds"}) {
    const NodeSimulation& other = *req(node_plan(path)).input.node_sim;
    CHECK(other.first_save_s == 0);
    CHECK(other.first_save.empty());
  }
}

TEST_CASE("plan --node: hand flags override the phase they stand for", "[plan][node]") {
  json s = node_plan("gds");
  s["node_bw"] = "1 GB/s";
  const PlanResult r = plan_checkpoint(req(s).input);
  CHECK(r.save.bottleneck == "node storage link");
  CHECK(r.save.last_done == Approx(r.rank_max_bytes / 1e9).epsilon(0.01));
  json b = node_plan("buffered");
  b["memcpy_bw"] = "0.1 GB/s";
  CHECK(plan_checkpoint(req(b).input).save.bottleneck == "CPU memcpy (one thread per rank)");
}

TEST_CASE("plan --node: the JSON keeps the phases' last-done and names each phase's limit", "[plan][node][cli]") {
  const auto r = iowall::testing::run_iowall(
      "plan checkpoint --params 8B --gpus 8 --node gpu-machine-h200 --path buffered --output-format json");
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("/save/last_done_s"_json_pointer).get<double>() > 0);
  CHECK(j.at("/restore/last_done_s"_json_pointer).get<double>() > 0);
  CHECK(j.at("/node/path"_json_pointer) == "buffered");
  CHECK(j.at("/node/first_save/last_done_s"_json_pointer).get<double>() > j.at("/node/save/last_done_s"_json_pointer).get<double>());
  for (const char* dir : {"save", "restore", "first_save"})
    for (const auto& p : j["node"][dir]["phases"])
      if (p["seconds"].get<double>() > 0) CHECK(!p["limited_by"].get<std::string>().empty());
}

TEST_CASE("plan --node: the text says a buffered restore is a new process's, copies into new memory",
          "[plan][node][cli]") {
  // The buffered restore is simulated into pageable_fresh memory (node_rates.cpp), so its figure is a
  // restart's; the text says so on that path alone (the O_DIRECT paths copy into pinned buffers).
  const std::string base = "plan checkpoint --params 8B --gpus 8 --node gpu-machine-h200 --path ";
  const auto buffered = iowall::testing::run_iowall(base + "buffered");
  REQUIRE(buffered.code == 0);
  const auto line = buffered.out.find("restore ");
  REQUIRE(line != std::string::npos);
  const std::string restore = buffered.out.substr(line, buffered.out.find('\n', line) - line);
  CHECK(restore.find("(a new process: every copy into new memory)") != std::string::npos);
  const auto gds = iowall::testing::run_iowall(base + "gds");
  REQUIRE(gds.code == 0);
  CHECK(gds.out.find("a new process") == std::string::npos);
}

TEST_CASE("plan --node: a missing file, a topology without a GPU and an unknown path are one line, exit 2",
          "[plan][node][cli][errors]") {
  const std::string base = "plan checkpoint --params 8B --gpus 8 ";
  for (const std::string bad : {"--node /nonexistent/node.json", "--node cpu-machine", "--node gpu-machine-h200 --path fast",
                                "--node gpu-machine-h200 --target pfs", "--node gpu-machine-h200 --gpus-per-node 8"}) {
    const auto r = iowall::testing::run_iowall(base + bad);
    INFO(bad << " -> " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("iowall: --", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}
