#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/run_iowall.hpp"

using Json = nlohmann::json;

// The timing itself is checked by the benchmark (reports/benchmarks.md), not here: this
// test holds what the benchmark runs to the scenario it claims to time.
TEST_CASE("bench iops runs each path at the drives' or the CPUs' ceiling and reports per simulated second",
          "[nvme][bench]") {
  const auto r = iowall::testing::run_iowall("bench iops --size \"8 MiB\" --repeats 2 --output-format json",
                                             std::string("cd ") + IOWALL_SOURCE_DIR + " && ");
  REQUIRE(r.code == 0);
  const Json j = Json::parse(r.out);
  REQUIRE(j["runs"].size() == 4);
  CHECK(j["runs"][0]["path"] == "gpu_direct");  // alternated
  CHECK(j["runs"][1]["path"] == "gpu_initiated");
  CHECK(j["runs"][2]["path"] == "gpu_direct");
  REQUIRE(j["summary"].size() == 2);
  for (const Json& s : j["summary"]) {
    CHECK(s["events_per_io"].get<double>() > 1.0);
    CHECK(s["wall_s_per_simulated_s_median"].get<double>() > 0.0);
    CHECK(s["met"].get<bool>() == (s["wall_s_per_simulated_s_median"].get<double>() <= 20.0));
  }
  // gpu_initiated needs no CPU and reaches the eight drives' 8 x 2.5 M IOPS (short runs
  // lose a little to ramp-up); gpu_direct stops at socket 0's cores, below it.
  const double initiated = j["summary"][1]["simulated_iops"].get<double>();
  const double direct = j["summary"][0]["simulated_iops"].get<double>();
  CHECK(initiated > 17e6);
  CHECK(initiated <= 20.1e6);
  CHECK(direct < initiated);
}

TEST_CASE("bench iops refuses an empty path list and an unknown path with exit code 2", "[nvme][bench]") {
  const std::string cd = std::string("cd ") + IOWALL_SOURCE_DIR + " && ";
  CHECK(iowall::testing::run_iowall("bench iops --paths , --size \"4 MiB\"", cd).code == 2);
  const auto r = iowall::testing::run_iowall("bench iops --paths nosuch --size \"4 MiB\"", cd);
  CHECK(r.code == 2);
  CHECK(r.err.find("--paths") != std::string::npos);  // the option that put it there
}
