// The typed result of a run and its one JSON writer: a result built by hand, and one
// made by a real run, come back equal from their JSON (through text too); the table, CSV
// and statistics writers read the typed result; a result file with a field of the wrong
// type is refused naming the file and the field's pointer.
#include <catch2/catch.hpp>

#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/report/result_file.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/report/run_table.hpp"
#include "sim/report/stats_writers.hpp"
#include "sim/run/runner.hpp"
#include "tests/report/report_test_util.hpp"

using namespace iowall;

namespace {

StatsResult some_stats() {
  StatsResult s;
  StatRecord c;
  c.kind = StatKind::counter;
  c.unit = "commands";
  c.value = 4096;
  s["nvme0/commands"] = c;
  StatRecord g;
  g.kind = StatKind::gauge;
  g.unit = "units";
  g.mean = 3.6;
  g.max = 4;
  g.capacity = 4;
  g.series = StatSeries{0.001, {3.5, 3.75, 3.55}};
  s["nvme0/media_read/busy"] = g;
  StatRecord h;
  h.kind = StatKind::histogram;
  h.unit = "ns";
  h.count = 100;
  h.min = 900;
  h.max = 2500;
  h.mean = 1200.5;
  h.stddev = 80.25;
  h.percentiles = {{1, 950}, {50, 1100}, {99, 2000}, {99.9, 2400}};
  s["gpu0/latency"] = h;
  StatRecord t;
  t.kind = StatKind::series;
  t.unit = "GB/s";
  t.series = StatSeries{0.5, {1.25, 2.5}};
  s["run/throughput"] = t;
  return s;
}

RunResult hand_made() {
  RunResult r;
  r.iowall_version = kIowallVersion;
  r.scenario = "hand-made";
  r.description = "two paths, one limited";
  r.topology = "workstation-gen5";
  r.topology_summary = TopologySummary{3, 2, {{"gpu", 1}, {"nvme_ssd", 2}}};
  r.seed = 18446744073709551615ull;  // the largest seed survives
  r.fidelity = "chunk";
  r.workload = {{"kind", "sequential_read"}, {"size", "64 MiB"}, {"io_size", "1 MiB"}, {"threads", 4}, {"qd", 2}};
  PathResult gds;
  gds.label = "gpu_direct";
  PathMetrics& m = gds.metrics;
  m.throughput_GBps = 26.9123;
  m.iops = 25666.7;
  m.latency_mean_us = 310.25;
  m.latency_p50_us = 305.5;
  m.latency_p99_us = 520.125;
  m.latency_p999_us = 611.0;
  m.cpu_cores_busy = 0.4;
  m.iops_per_cpu_core = 64166.8;
  m.bytes = 67108864;
  m.ios = 64;
  m.first_done_s = 0.002410001;
  m.last_done_s = 0.002493567;
  m.events = 123456;
  m.limited_by = LimitedBy{"nvme0/media_read", 0.9731};
  m.jobs = {{"gpu0", 67108864, 26.9123, 0.002410001, 0.002493567}};
  m.note = "the drives' media bound the path";
  gds.stats = some_stats();
  PathResult bounce;
  bounce.label = "a-much-longer-path-label";
  bounce.metrics.throughput_GBps = 11.0;
  r.paths = {gds, bounce};
  return r;
}

}  // namespace

TEST_CASE("a typed run result comes back equal from its JSON, and from the JSON's text", "[report][result]") {
  const RunResult r = hand_made();
  const nlohmann::json j = to_json(r);
  CHECK(run_result_from_json(j, "r.json") == r);
  CHECK(run_result_from_json(nlohmann::json::parse(j.dump()), "r.json") == r);
  // The shape fio-minded readers rely on: paths in order, metrics and stats by path.
  CHECK(j["iowall_result"] == result_marker("run"));
  CHECK(j["paths"] == nlohmann::json({"gpu_direct", "a-much-longer-path-label"}));
  CHECK(j["metrics"]["gpu_direct"]["limited_by"]["resource"] == "nvme0/media_read");
  CHECK(j["metrics"]["a-much-longer-path-label"]["limited_by"].is_null());
  CHECK_FALSE(j["metrics"]["a-much-longer-path-label"].contains("note"));
  CHECK(j["stats"]["gpu_direct"]["gpu0/latency"]["percentile"]["99.900000"] == 2400);
  CHECK(j["stats"]["gpu_direct"]["nvme0/media_read/busy"]["series"]["values"].size() == 3);
  // Written again, the same bytes.
  CHECK(to_json(run_result_from_json(j, "r.json")).dump() == j.dump());
}

TEST_CASE("a real run's typed result round-trips through its JSON, series and all", "[report][result]") {
  const Scenario sc = scenario_from_json(nlohmann::json::parse(testing::tiny_scenario()), "tiny.json", IOWALL_SOURCE_DIR);
  RunOptions options;
  options.series_period = ms(1);
  const RunResult r = run_scenario(sc, options);
  REQUIRE(r.paths.size() == 2);
  CHECK(r.paths[0].label == "gpu_direct");
  CHECK(r.paths[0].metrics.throughput_GBps > 0);
  CHECK_FALSE(r.paths[0].stats.empty());
  const std::string text = to_json(r).dump();
  const RunResult back = run_result_from_json(nlohmann::json::parse(text), "tiny-result.json");
  CHECK(back == r);
  CHECK(to_json(back).dump() == text);
}

TEST_CASE("a sweep's typed result is a list of typed points and round-trips", "[report][result]") {
  SweepResult s;
  s.iowall_version = kIowallVersion;
  s.scenario = "hand-made";
  s.points = {{1, {{"/workload/io_size", "4 KiB"}}, hand_made()}, {3, {{"/workload/io_size", "1 MiB"}}, hand_made()}};
  s.shard = "1/2";
  s.sweep_points = 4;
  const nlohmann::json j = to_json(s);
  CHECK(j["iowall_result"] == result_marker("sweep"));
  CHECK(j["points"][1]["index"] == 3);
  CHECK(j["points"][0]["result"]["iowall_result"] == result_marker("run"));
  CHECK(sweep_result_from_json(nlohmann::json::parse(j.dump()), "s.json") == s);
}

TEST_CASE("the text table and CSV read the typed result", "[report][result]") {
  const RunResult r = hand_made();
  const std::string table = run_table(r);
  CHECK(table.rfind("hand-made  (workstation-gen5, 64 MiB x 1 MiB sequential_read, 4 threads x QD2, chunk fidelity, "
                    "seed 18446744073709551615)\n",
                    0) == 0);
  // The path column widens to the longest label (24 characters).
  CHECK(table.find("gpu_direct                  26.91     305.5     520.1       0.40   0.0025  nvme0/media_read (97%)\n") !=
        std::string::npos);
  CHECK(table.find("                         note: the drives' media bound the path\n") != std::string::npos);
  CHECK(table.find("a-much-longer-path-label    11.00       0.0       0.0       0.00   0.0000  -\n") != std::string::npos);

  const std::string csv = run_csv(r);
  CHECK(csv.find("hand-made,gpu_direct,26.9123,25666.7,310.25,305.5,520.125,0.4,0.002410001,0.002493567,"
                 "nvme0/media_read,0.9731\n") != std::string::npos);
  CHECK(csv.find("hand-made,a-much-longer-path-label,11.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,,\n") != std::string::npos);
}

TEST_CASE("the statistics writers read the typed statistics", "[report][result]") {
  const StatsResult s = some_stats();
  const std::string text = stats_text(s);
  CHECK(text.find("gpu0/latency") != std::string::npos);
  CHECK(text.find("count 100 mean 1200.5 p50 1100 p99 2000\n") != std::string::npos);
  CHECK(text.find("mean 3.6 max 4\n") != std::string::npos);
  CHECK(text.find("4096\n") != std::string::npos);
  const std::string csv = stats_csv(s, "path,", "gpu_direct,");
  CHECK(csv.rfind("path,stat,unit,value,mean,max,count,p50,p99\n", 0) == 0);
  CHECK(csv.find("gpu_direct,gpu0/latency,ns,,1200.5,2500,100,1100,2000\n") != std::string::npos);
  CHECK(csv.find("gpu_direct,nvme0/commands,commands,4096,,,,,\n") != std::string::npos);
  CHECK(csv.find("gpu_direct,nvme0/media_read/busy,units,,3.6,4,,,\n") != std::string::npos);
  CHECK(s.at("nvme0/media_read/busy").utilization() == Approx(0.9));
}

TEST_CASE("a result file with a field of the wrong type is refused naming the file and pointer", "[report][result]") {
  const nlohmann::json good = to_json(hand_made());
  struct Case {
    const char* pointer;
    nlohmann::json value;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"/metrics/gpu_direct/throughput_GBps", "fast", "r.json: /metrics/gpu_direct/throughput_GBps: not a number"},
      {"/metrics/gpu_direct/jobs/0/bytes", 1.5, "r.json: /metrics/gpu_direct/jobs/0/bytes: not an integer"},
      {"/metrics/gpu_direct/limited_by", 3, "r.json: /metrics/gpu_direct/limited_by: neither null nor an object"},
      {"/metrics/gpu_direct/ios", -1, "r.json: /metrics/gpu_direct/ios: not a non-negative integer"},
      {"/stats/gpu_direct/gpu0~1latency/percentile/50.000000", "x",
       "r.json: /stats/gpu_direct/gpu0~1latency/percentile/50.000000: not a non-negative integer"},
      {"/stats/gpu_direct/gpu0~1latency/percentile", {{"median", 3}},
       "r.json: /stats/gpu_direct/gpu0~1latency/percentile/median: not a percentile"},
      {"/topology_summary/devices", {{"gpu", "one"}}, "r.json: /topology_summary/devices/gpu: not a non-negative integer"},
      {"/workload", "sequential", "r.json: /workload: not an object"},
      {"/seed", "one", "r.json: /seed: not a non-negative integer"},
      {"/paths", nlohmann::json::array(), "r.json: /paths: missing, empty or not an array of data path names"},
      {"/metrics/a-much-longer-path-label", 5, "r.json: /metrics/a-much-longer-path-label: missing or not an object"},
  };
  for (const Case& c : cases) {
    nlohmann::json bad = good;
    bad[nlohmann::json::json_pointer(c.pointer)] = c.value;
    INFO(c.pointer);
    try {
      (void)run_result_from_json(bad, "r.json");
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).rfind(c.message, 0) == 0);
    }
  }
  // A result written by hand may leave out what it does not know: absent is not wrong.
  const RunResult minimal = run_result_from_json(
      {{"paths", {"gpu_direct"}}, {"metrics", {{"gpu_direct", {{"throughput_GBps", 1.5}}}}}}, "m.json");
  CHECK_FALSE(minimal.seed);
  CHECK_FALSE(minimal.iowall_version);
  CHECK(minimal.paths.at(0).metrics.throughput_GBps == 1.5);
  CHECK_FALSE(minimal.paths.at(0).metrics.limited_by);
}
