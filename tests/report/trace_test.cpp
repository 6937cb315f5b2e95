// `iowall run --trace`: Chrome trace-event JSON that Perfetto opens, with one process
// per data path and device, a named thread track per resource (per unit of a resource
// with several), and slices named by what they carry that nest on every track.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/report/report_test_util.hpp"
#include "tests/support/sanitized.hpp"

using namespace iowall::testing;

namespace {

// What a trace reader sees: per (pid, tid), the slices of the track, in integer
// nanoseconds (readers turn each of `ts` and `dur` into nanoseconds on its own).
struct TraceView {
  std::map<int, std::string> processes;                            // pid -> name
  std::map<std::pair<int, int>, std::string> threads;              // (pid, tid) -> name
  std::map<std::pair<int, int>, std::vector<std::pair<long long, long long>>> slices;  // [start, end)
  std::map<std::pair<int, int>, std::set<std::string>> names;      // slice names per track
  std::size_t count = 0;
  std::size_t other = 0;  // events neither metadata nor complete slices
};

long long reader_ns(const nlohmann::json& us) { return std::llround(us.get<double>() * 1000.0); }

TraceView read_trace(const nlohmann::json& trace) {
  TraceView v;
  for (const auto& e : trace.at("traceEvents")) {
    const std::string ph = e.at("ph").get<std::string>();
    const std::pair<int, int> track{e.at("pid").get<int>(), e.at("tid").get<int>()};
    if (ph == "M") {
      if (e["name"] == "process_name") v.processes[track.first] = e["args"]["name"].get<std::string>();
      if (e["name"] == "thread_name") v.threads[track] = e["args"]["name"].get<std::string>();
      continue;
    }
    if (ph != "X") {
      ++v.other;
      continue;
    }
    const long long start = reader_ns(e.at("ts"));
    v.slices[track].push_back({start, start + reader_ns(e.at("dur"))});
    v.names[track].insert(e.at("name").get<std::string>());
    ++v.count;
  }
  return v;
}

// Pairs of slices on one track that overlap without one holding the other: trace
// readers reject them (or draw them wrongly). Sorted by start (the longer first when
// two start together), each slice must end within every open slice it starts inside.
std::size_t improper_overlaps(std::vector<std::pair<long long, long long>> slices) {
  std::sort(slices.begin(), slices.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  });
  std::size_t bad = 0;
  std::vector<long long> open;  // ends of the slices that hold the current one
  for (const auto& [start, end] : slices) {
    while (!open.empty() && open.back() <= start) open.pop_back();
    if (!open.empty() && end > open.back()) ++bad;
    open.push_back(end);
  }
  return bad;
}

}  // namespace

TEST_CASE("the nesting check finds slices that overlap without nesting", "[report][trace]") {
  using Slices = std::vector<std::pair<long long, long long>>;
  CHECK(improper_overlaps(Slices{{0, 10}, {2, 5}, {5, 10}, {10, 20}}) == 0);  // nested and touching
  CHECK(improper_overlaps(Slices{{0, 10}, {0, 4}, {4, 4}}) == 0);             // same start, empty slice
  CHECK(improper_overlaps(Slices{{0, 10}, {5, 15}}) == 1);                    // overlap, no nesting
  CHECK(improper_overlaps(Slices{{5, 15}, {0, 10}, {2, 3}, {12, 20}}) == 2);
}

TEST_CASE("the trace is valid trace-event JSON with a process per path and device", "[report][trace]") {
  const std::string dir = scratch_dir("trace");
  write_text(dir + "/tiny.json", tiny_scenario());
  const CliResult r = run_iowall("run " + dir + "/tiny.json --trace " + dir + "/trace.json --output-format json");
  INFO(r.output());
  REQUIRE(r.code == 0);
  const nlohmann::json trace = nlohmann::json::parse(slurp(dir + "/trace.json"));
  REQUIRE(trace.is_object());
  REQUIRE(trace.contains("traceEvents"));
  REQUIRE(trace["traceEvents"].is_array());
  for (const auto& e : trace["traceEvents"]) {
    // Every event has the fields trace readers require, with the right types.
    for (const char* key : {"ph", "ts", "pid", "tid", "name"}) REQUIRE(e.contains(key));
    CHECK(e["ts"].is_number());
    CHECK(e["pid"].is_number_integer());
    CHECK(e["tid"].is_number_integer());
    CHECK(e["name"].is_string());
    if (e["ph"] == "M") REQUIRE(e["args"]["name"].is_string());
    if (e["ph"] == "X") {
      REQUIRE(e["dur"].is_number());
      CHECK(e["dur"].get<double>() >= 0);
      CHECK(e["ts"].get<double>() >= 0);
    }
  }
  const TraceView v = read_trace(trace);
  CHECK(v.count > 0);
  CHECK(v.other == 0);
  CHECK_FALSE(trace.contains("otherData"));  // nothing dropped
  // Every slice lies on a named thread of a named process.
  for (const auto& [track, slices] : v.slices) {
    CHECK(v.threads.count(track) == 1);
    CHECK(v.processes.count(track.first) == 1);
  }
  // Each path has one process per device of the topology, each name once.
  const nlohmann::json topo = nlohmann::json::parse(slurp(IOWALL_SOURCE_DIR "/topologies/workstation-gen5.json"));
  std::multiset<std::string> names;
  for (const auto& [pid, name] : v.processes) names.insert(name);
  for (const std::string path : {"gpu_direct", "cpu_gpu"})
    for (const auto& d : topo["devices"]) {
      INFO(path << ": " << d["id"]);
      CHECK(names.count(path + ": " + d["id"].get<std::string>()) == 1);
    }
  // The other processes are the links of each path ("path: a.port--b.port"), one each.
  for (const auto& name : names) {
    INFO(name);
    CHECK(names.count(name) == 1);
    CHECK((name.rfind("gpu_direct: ", 0) == 0 || name.rfind("cpu_gpu: ", 0) == 0));
  }
  std::filesystem::remove_all(dir);
}

// Every shipped scenario that runs data paths, traced: on every track, slices nest or
// follow one another (a server with several units puts each on its own track), every
// path is there, and slices are named by what they carry, not by the resource. Under the
// sanitizers each moves at most 512 MiB a target (tests/support/sanitized.hpp).
TEST_CASE("every shipped scenario's trace nests on every track and names what slices carry", "[report][trace]") {
  const std::string dir = scratch_dir("trace_shipped");
  std::size_t scenarios = 0;
  std::set<std::string> all_names;
  for (const auto& f : std::filesystem::directory_iterator(IOWALL_SOURCE_DIR "/scenarios")) {
    const nlohmann::json sc = nlohmann::json::parse(slurp(f.path().string()));
    if (!sc.contains("paths")) continue;  // planner inputs
    INFO(f.path().filename().string());
    ++scenarios;
    const std::string file = dir + "/trace.json";
    const CliResult r =
        run_iowall("run " + f.path().string() + sanitized_size_args(sc) + " --trace " + file +
                   " --trace-events 100000 -q --output-format json");
    INFO(r.err);
    REQUIRE(r.code == 0);
    const nlohmann::json result = nlohmann::json::parse(r.out);
    const TraceView v = read_trace(nlohmann::json::parse(slurp(file)));
    CHECK(v.count > 0);
    CHECK(v.count <= 100000);
    CHECK(v.other == 0);
    std::size_t improper = 0;
    for (const auto& [track, slices] : v.slices) {
      const std::size_t bad = improper_overlaps(slices);
      if (bad) UNSCOPED_INFO(v.processes.at(track.first) << " / " << v.threads.at(track) << ": " << bad);
      improper += bad;
    }
    CHECK(improper == 0);
    // Every path of the run has processes and slices of its own.
    for (const auto& p : result["paths"]) {
      const std::string prefix = p.get<std::string>() + ": ";
      std::size_t slices = 0;
      for (const auto& [track, s] : v.slices)
        if (v.processes.at(track.first).rfind(prefix, 0) == 0) slices += s.size();
      INFO(prefix);
      CHECK(slices > 0);
    }
    // Slice names say what a job carries: never the old "busy", never the resource's own
    // name (what a resource shows when its model did not say what it carries).
    for (const auto& [track, names] : v.names) {
      const std::string thread = v.threads.at(track);
      const std::string resource = thread.substr(0, thread.find(" #"));
      for (const std::string& n : names) {
        INFO(v.processes.at(track.first) << " / " << thread << ": " << n);
        CHECK(n != "busy");
        CHECK(n != resource);
        all_names.insert(n);
      }
    }
  }
  CHECK(scenarios >= 10);
  for (const char* n : {"PCIe TLPs", "command", "media read", "sense", "CPU work", "RoCE packets"}) {
    INFO(n);
    CHECK(all_names.count(n) == 1);
  }
  std::filesystem::remove_all(dir);
}
