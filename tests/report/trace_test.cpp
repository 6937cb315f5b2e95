// `iowall run --trace`: Chrome trace-event JSON that Perfetto opens, with one process
// track per device of the scenario's topology and a named thread track per resource.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "tests/report/report_test_util.hpp"

using namespace iowall::testing;

TEST_CASE("the trace is valid trace-event JSON with one track per device", "[report][trace]") {
  const std::string dir = scratch_dir("trace");
  write_text(dir + "/tiny.json", tiny_scenario());
  const CliResult r = run_iowall("run " + dir + "/tiny.json --trace " + dir + "/trace.json --output-format json");
  INFO(r.output());
  REQUIRE(r.code == 0);
  const nlohmann::json trace = nlohmann::json::parse(slurp(dir + "/trace.json"));
  REQUIRE(trace.is_object());
  REQUIRE(trace.contains("traceEvents"));
  REQUIRE(trace["traceEvents"].is_array());

  std::map<int, std::string> processes;        // pid -> device
  std::set<std::pair<int, int>> named_threads;  // (pid, tid) with a thread_name
  std::set<std::pair<int, int>> busy_threads;
  std::size_t spans = 0;
  for (const auto& e : trace["traceEvents"]) {
    // Every event has the fields trace readers require, with the right types.
    REQUIRE(e.contains("ph"));
    REQUIRE(e.contains("ts"));
    REQUIRE(e.contains("pid"));
    REQUIRE(e.contains("tid"));
    REQUIRE(e.contains("name"));
    CHECK(e["ts"].is_number());
    CHECK(e["pid"].is_number_integer());
    CHECK(e["tid"].is_number_integer());
    CHECK(e["name"].is_string());
    const std::string ph = e["ph"].get<std::string>();
    const int pid = e["pid"].get<int>(), tid = e["tid"].get<int>();
    if (ph == "M") {
      REQUIRE(e["args"]["name"].is_string());
      if (e["name"] == "process_name") {
        CHECK(processes.count(pid) == 0);
        processes[pid] = e["args"]["name"].get<std::string>();
      } else if (e["name"] == "thread_name") {
        CHECK(named_threads.insert({pid, tid}).second);
      }
    } else {
      REQUIRE(ph == "X");
      REQUIRE(e["dur"].is_number());
      CHECK(e["dur"].get<double>() >= 0);
      CHECK(e["ts"].get<double>() >= 0);
      busy_threads.insert({pid, tid});
      ++spans;
    }
  }
  CHECK(spans > 0);
  // Every span lies on a named thread of a named process.
  for (const auto& t : busy_threads) {
    CHECK(named_threads.count(t) == 1);
    CHECK(processes.count(t.first) == 1);
  }
  // One process track per device of the topology, each name once.
  const nlohmann::json topo = nlohmann::json::parse(slurp(IOWALL_SOURCE_DIR "/topologies/workstation-gen5.json"));
  std::multiset<std::string> names;
  for (const auto& [pid, name] : processes) names.insert(name);
  for (const auto& d : topo["devices"]) {
    INFO(d["id"]);
    CHECK(names.count(d["id"].get<std::string>()) == 1);
  }
  // The other process tracks are the links ("a.port--b.port"), one each.
  for (const auto& name : names) {
    INFO(name);
    CHECK(names.count(name) == 1);
  }
  std::filesystem::remove_all(dir);
}
