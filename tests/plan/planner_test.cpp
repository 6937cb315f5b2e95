// The analytical planner: times from bandwidth bounds, Young/Daly, availability,
// inverse queries that round-trip, and bad input.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/core/error.hpp"
#include "sim/plan/checkpoint_planner.hpp"
#include "sim/plan/failure_model.hpp"
#include "sim/plan/plan_request.hpp"

using namespace iowall::plan;
using nlohmann::json;

namespace {
PlanRequest req(json s) { return request_from_settings(s, {}); }
// 1024 H100s, 3.57T params: the 50 TB checkpoint of seed 002.
json seed002(const std::string& path) {
  return {{"checkpoint_size", "50 TB"}, {"gpus", 1024}, {"tp", 8}, {"pp", 16}, {"zero", 1},
          {"target", "nvme-of"},       {"storage_bw", "1.1 TB/s"}, {"path", path}};
}
}  // namespace

TEST_CASE("Young and Daly intervals against hand-computed values", "[plan][failures]") {
  // M = 50,000 h / 1024 GPUs = 175,781.25 s; delta = 300 s.
  const double M = 50000 * 3600.0 / 1024;
  CHECK(M == Approx(175781.25));
  CHECK(young_interval(300, M) == Approx(10269.87).epsilon(1e-5));  // sqrt(2 * 300 * 175781.25)
  CHECK(daly_interval(300, M) == Approx(9969.87).epsilon(1e-5));
  CHECK(daly_interval(5e5, M) == Approx(M));  // delta >= 2M: Daly takes T = M
  // The first-order waste at Young's interval is sqrt(2 delta / M) (+ R/M).
  const double T = young_interval(300, M);
  CHECK(waste_first_order(300, T, 0, M) == Approx(std::sqrt(2 * 300 / M)));
}

TEST_CASE("availability: 30 min of checkpoint per 2 h of training is 80% without failures", "[plan][failures]") {
  // Seed 003's arithmetic: 7200 / (7200 + 1800).
  CHECK(availability(1800, 7200, 0, 1e15) == Approx(0.8).epsilon(1e-6));
  // With failures the exact exponential model and the first-order waste agree when small.
  const double M = 175781.25, d = 45, T = 3600, R = 120;
  CHECK(availability(d, T, R, M) == Approx(1 / (1 + waste_first_order(d, T, R, M))).epsilon(2e-3));
  CHECK(availability(d, T, R, M) < T / (T + d));
}

TEST_CASE("a storage-bound save takes size / aggregate bandwidth plus barrier and file latency", "[plan][times]") {
  PlanRequest q = req(seed002("gds"));
  const PlanResult r = plan_checkpoint(q.input);
  CHECK(r.total_bytes == Approx(50e12).epsilon(1e-6));
  CHECK(r.writers == 1024);
  CHECK(r.save.bottleneck == "storage system aggregate");
  const double fixed = 10 * 10e-6 + q.input.storage.file_latency;  // log2(1024) barrier rounds
  CHECK(r.save.last_done == Approx(50e12 / 1.1e12 + fixed).epsilon(1e-4));
  CHECK(r.save.first_done <= r.save.last_done);
  CHECK(r.stall == r.save.last_done);
  CHECK(r.mtbf == Approx(175781.25));
}

TEST_CASE("the bounce path is never faster than GDS, and is host-bound when storage is fast", "[plan][times]") {
  json s = seed002("gds");
  s["storage_bw"] = "100 TB/s";
  const PlanResult gds = plan_checkpoint(req(s).input);
  s["path"] = "bounce";
  const PlanResult bounce = plan_checkpoint(req(s).input);
  CHECK(bounce.save.last_done > gds.save.last_done);
  CHECK(bounce.save.bottleneck == "CPU memcpy (one thread per rank)");
  CHECK(gds.save.bottleneck == "node storage link");
}

TEST_CASE("async: training stalls only for the copy to host memory", "[plan][times]") {
  json s = seed002("gds");
  s["async"] = true;
  const PlanResult r = plan_checkpoint(req(s).input);
  // Per rank: the largest shard over the copy engine, or a node's over host memory.
  const double copy = std::max(r.rank_max_bytes / 55.63e9, r.node_max_bytes / 490e9);
  CHECK(r.stall == Approx(copy + 10 * 10e-6).epsilon(1e-4));
  CHECK(r.flush.last_done > r.stall);
  CHECK(r.availability > plan_checkpoint(req(seed002("gds")).input).availability);
}

TEST_CASE("inverse: the bandwidth for a target overhead gives that overhead when fed back", "[plan][inverse]") {
  json s = seed002("gds");
  s["interval"] = "1 h";
  for (double target : {0.03, 0.05, 0.2}) {
    PlanRequest q = req(s);
    const BandwidthAnswer a = bandwidth_for_overhead(q.input, target);
    REQUIRE(a.bandwidth);
    const PlanResult back = plan_checkpoint(with_storage_bandwidth(q.input, *a.bandwidth));
    CHECK(back.overhead == Approx(target).epsilon(1e-6));
    CHECK(a.units == std::ceil(*a.bandwidth / q.input.storage.server_write_bw));
  }
  // Below the failure floor no bandwidth helps: the answer says so.
  const BandwidthAnswer none = bandwidth_for_overhead(req(s).input, 0.001);
  CHECK_FALSE(none.bandwidth);
  CHECK(none.floor_overhead > 0.001);
}

TEST_CASE("inverse: the largest model for a window saves within it, and a larger one does not", "[plan][inverse]") {
  json s = {{"params", "1e9"}, {"gpus", 1024}, {"tp", 8}, {"pp", 16}, {"zero", 3}, {"storage_bw", "200 GB/s"}};
  const PlanRequest q = req(s);
  const WindowAnswer w = largest_model_for_window(q.input, 60);
  REQUIRE(w.params > 0);
  CHECK(w.save_time <= 60);
  // 200 GB/s x 60 s = 12 TB at 14 B/param, less the barrier and file latency.
  CHECK(w.bytes == Approx(200e9 * (60 - q.input.storage.file_latency - 1e-4)).epsilon(1e-4));
  PlanInput bigger = q.input;
  bigger.state.params = w.params + w.params / 1000;
  CHECK(plan_checkpoint(bigger).save.last_done > 60);
}

TEST_CASE("bad input is an InputError, an interval shorter than the save is a warning", "[plan][errors]") {
  json s = seed002("gds");
  auto bad = [&](const char* key, json value) {
    json t = s;
    t[key] = value;
    CHECK_THROWS_AS(plan_checkpoint(req(t).input), iowall::InputError);
  };
  bad("gpus", 1000);             // tp x pp = 128 does not divide it
  bad("mttf", "0 h");
  bad("storage_bw", 200);        // a bare number where a bandwidth is needed
  bad("storage_bw", "200 parsecs");
  bad("capacity", "10 TB");      // smaller than the 50 TB checkpoint
  bad("precision", "fp12");
  bad("target_overhead", "5");
  bad("no_such_key", "1");
  json t = s;
  t["interval"] = "10 s";
  const PlanResult r = plan_checkpoint(req(t).input);
  REQUIRE(r.warnings.size() >= 1);
  CHECK(r.warnings[0].find("shorter than the checkpoint save time") != std::string::npos);
}

TEST_CASE("long durations parse past the picosecond range", "[plan][units]") {
  double s = 0;
  std::string err;
  CHECK(parse_long_time("50000 h", s, err));
  CHECK(s == Approx(1.8e8));
  CHECK(parse_long_time("2 h", s, err));
  CHECK(s == Approx(7200));
  CHECK_FALSE(parse_long_time("50000", s, err));
  CHECK(err.find("unit is missing") != std::string::npos);
}

TEST_CASE("fidelities answer through one interface", "[plan]") {
  const PlanInput in = req(seed002("gds")).input;
  CHECK(solve(in, "analytical").total_bytes == plan_checkpoint(in).total_bytes);
  CHECK_THROWS_AS(solve(in, "no-such-fidelity"), iowall::InputError);
}

TEST_CASE("a cluster MTBF (--cluster-mtbf) is the per-GPU MTTF divided by the GPUs, refused beside --mttf", "[plan][failures]") {
  json s = seed002("gds");
  s["cluster_mtbf"] = "14.7 min";
  const PlanRequest q = req(s);
  CHECK(q.input.mttf == Approx(14.7 * 60 * 1024));
  CHECK(plan_checkpoint(q.input).mtbf == Approx(14.7 * 60));
  s["mttf"] = "50000 h";
  CHECK_THROWS_AS(req(s), iowall::InputError);
}

TEST_CASE("warnings when failures outpace recovery and first-order waste passes 100%", "[plan][failures]") {
  json s = seed002("gds");
  const PlanResult calm = plan_checkpoint(req(s).input);
  for (const auto& w : calm.warnings) CHECK(w.find("outpace") == std::string::npos);
  // A 2,048-GPU job failing every 10 min while its restore takes longer.
  s["storage_bw"] = "10 GB/s";
  s["storage_read_bw"] = "10 GB/s";
  s["cluster_mtbf"] = "10 min";
  const PlanResult r = plan_checkpoint(req(s).input);
  REQUIRE(r.recovery >= r.mtbf);
  REQUIRE(r.waste_first_order > 1.0);
  int outpace = 0, waste = 0;
  for (const auto& w : r.warnings) {
    outpace += w.find("failures outpace recovery") != std::string::npos;
    waste += w.find("past 100%") != std::string::npos;
  }
  CHECK(outpace == 1);
  CHECK(waste == 1);
}
