// Runs the real `iowall run --uncertainty N`: the same seed gives the same bytes for any
// --jobs and under mpirun, the nominal answer is the plain run's, and the intervals hold
// their medians. Bad uncertainty input is in the catalogue (tests/cli/bad_inputs).
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_iowall.hpp"
#include "tests/support/same_for_jobs.hpp"

namespace {

using Result = iowall::testing::CliResult;
using nlohmann::json;
Result cli(const std::string& args) { return iowall::testing::run_iowall(args); }

// The workstation's drives are pm1743s, whose preset carries its bandwidth ranges.
std::string scenario() {
  const std::string path = "/tmp/iowall_uncertainty_" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << R"({
  "name": "tiny", "topology": "topologies/workstation-gen5.json",
  "workload": {"kind": "sequential_read", "size": "64 MiB", "io_size": "1 MiB", "threads": 4,
               "targets": "gpu0", "storage": "nvme0,nvme1"},
  "paths": ["gpu_direct", "cpu_gpu"], "seed": 5})";
  return path;
}

}  // namespace

TEST_CASE("run --uncertainty: the same seed gives byte-identical JSON for any --jobs and under mpirun", "[cli][uncertainty]") {
  const std::string sc = scenario();
  const std::string args = "run " + sc + " --uncertainty 6 --output-format json";
  const Result one = iowall::testing::run_same_for_jobs_and_ranks(args);
  const Result seed2 = cli(args + " --uncertainty-seed 2");
  REQUIRE(seed2.code == 0);
  CHECK(seed2.out != one.out);  // the seed reaches the draws
}

TEST_CASE("run --uncertainty: the nominal answer is the plain run's, and each interval holds its median", "[cli][uncertainty]") {
  const std::string sc = scenario();
  const Result plain = cli("run " + sc + " --output-format json");
  const Result with = cli("run " + sc + " --uncertainty 8 --jobs 2 --output-format json");
  REQUIRE(plain.code == 0);
  REQUIRE(with.code == 0);
  json w = json::parse(with.out);
  REQUIRE(w.contains("uncertainty"));
  CHECK(w["uncertainty"]["samples"] == 8);
  CHECK(w["uncertainty"]["inputs"].size() >= 2);  // pm1743 read and write bandwidth
  for (const auto& [path, m] : w["metrics"].items()) {
    REQUIRE(m.contains("intervals"));
    for (const auto& [metric, v] : m["intervals"].items()) {
      INFO(path << " " << metric);
      CHECK(v["low"].get<double>() <= v["median"].get<double>());
      CHECK(v["median"].get<double>() <= v["high"].get<double>());
    }
    // The drives' read bandwidth is uncertain upward only (13 .. 14 GB/s, mode 13): the
    // throughput's interval moves up from the nominal run's.
    CHECK(m["intervals"]["throughput_GBps"]["high"].get<double>() > m["throughput_GBps"].get<double>());
  }
  w.erase("uncertainty");
  for (auto& [path, m] : w["metrics"].items()) m.erase("intervals");
  CHECK(w == json::parse(plain.out));

  const Result table = cli("run " + sc + " --uncertainty 4");
  REQUIRE(table.code == 0);
  CHECK(table.out.find("90% intervals over 4 samples (seed 1)") != std::string::npos);
  CHECK(table.out.find("pm1743.read_bandwidth") != std::string::npos);
  const Result csv = cli("run " + sc + " --uncertainty 4 --output-format csv");
  REQUIRE(csv.code == 0);
  CHECK(csv.out.find(",throughput_GBps_median,throughput_GBps_low,throughput_GBps_high") != std::string::npos);
}
