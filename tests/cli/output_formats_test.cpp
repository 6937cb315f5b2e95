// What the help promises about output: --output-format both (normal then JSON) on every
// command that lists it, CSV from sweep as from run, and -q on calibrate leaving only the
// profile file.
#include <catch2/catch.hpp>

#include "tests/support/run_iowall.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace {

using Result = iowall::testing::CliResult;
Result cli(const std::string& args) { return iowall::testing::run_iowall(args); }

// The JSON that follows the normal text in a "both" output: from the first line that is "{".
nlohmann::json json_part(const std::string& out) {
  const std::size_t at = out.find("\n{\n");
  REQUIRE(at != std::string::npos);
  return nlohmann::json::parse(out.substr(at + 1));
}

// A small scenario: two paths, a fraction of a second each.
std::string tiny_scenario() {
  const std::string path = "/tmp/iowall_formats_" + std::to_string(::getpid()) + ".json";
  std::ofstream(path) << R"({"name": "tiny", "topology": "topologies/workstation-gen5.json",
    "workload": {"kind": "sequential_read", "size": "64 MiB", "io_size": "1 MiB", "threads": 4,
                 "targets": "gpu0", "storage": "nvme0,nvme1"},
    "paths": ["gpu_direct", "cpu_gpu"]})";
  return path;
}

}  // namespace

TEST_CASE("every command that lists --output-format both gives the text and then the JSON", "[cli][output]") {
  const std::string sc = tiny_scenario();
  for (const std::string& args : {"run " + sc, "sweep " + sc + " --axis /workload/threads=1,2",
                                 std::string("plan checkpoint --gpus 64 --params 7e9"),
                                 std::string("topo show topologies/workstation-gen5.json")}) {
    INFO(args);
    const Result both = cli(args + " --output-format both");
    REQUIRE(both.code == 0);
    const Result text = cli(args);
    const Result json = cli(args + " --output-format json");
    REQUIRE(text.code == 0);
    REQUIRE(json.code == 0);
    CHECK(both.out == text.out + json.out);
    CHECK(json_part(both.out) == nlohmann::json::parse(json.out));
  }
  std::remove(sc.c_str());
}

TEST_CASE("a bad --output-format is refused before any work", "[cli][output]") {
  const Result r = cli("sweep scenarios/default.json --output-format bath");
  CHECK(r.code == 2);
  CHECK(r.err.find("--output-format") != std::string::npos);
  CHECK(r.out.empty());
}

TEST_CASE("sweep writes CSV: one row per point and path, the axes first", "[cli][output]") {
  const std::string sc = tiny_scenario();
  const Result r = cli("sweep " + sc + " --axis /workload/threads=1,2 --output-format csv");
  std::remove(sc.c_str());
  REQUIRE(r.code == 0);
  const std::string header = r.out.substr(0, r.out.find('\n'));
  CHECK(header.rfind("point,/workload/threads,scenario,path,throughput_GBps", 0) == 0);
  int rows = 0;
  for (char c : r.out) rows += c == '\n';
  CHECK(rows == 1 + 2 * 2);  // header, 2 points x 2 paths
  CHECK(r.out.find("\n1,2,") != std::string::npos);
}

TEST_CASE("calibrate -q prints nothing, the profile is written", "[cli][output][calibrate]") {
  const auto dir = std::filesystem::temp_directory_path() / ("iowall-quiet-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string profile = (dir / "p.json").string();
  const std::string m = "reports/calibration/cpu-machine/sweep/cpu_only-4K-qd1-t1-r1.json";
  const Result q = cli("calibrate " + m + " -o " + profile + " -q");
  CHECK(q.code == 0);
  CHECK(q.out.empty());
  CHECK(q.err.empty());
  CHECK(std::filesystem::exists(profile));
  const Result loud = cli("calibrate " + m + " -o " + profile);
  CHECK(loud.code == 0);
  CHECK_FALSE(loud.out.empty());
  const Result qj = cli("calibrate " + m + " -o " + profile + " -q --output-format json");
  CHECK(qj.code == 0);
  CHECK(nlohmann::json::parse(qj.out).is_object());
  std::filesystem::remove_all(dir);
}
