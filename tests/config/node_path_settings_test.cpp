// A machine's own settings: a topology's "paths" entry gives a data path the values its
// kernel and block queues have (the page cache's writeback, readahead), and its cpu_socket
// the CPU's CRC-32 rate. A scenario's own path entry (workload key) overrides them key by
// key; a bad value or an unknown key there is refused naming the topology's pointer.
#include <catch2/catch.hpp>

#include <fstream>

#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {

Json machine() { return Json::parse(std::ifstream(IOWALL_SOURCE_DIR "/topologies/gpu-machine-h200.json")); }

// A torch.save-like save of 2 GiB to the machine's drive through the page cache: new file,
// CRC-32 pass, fsync at the end.
const Json kSave = {{"kind", "checkpoint_save"}, {"size", "2 GiB"},  {"tensors", 8},
                    {"host_memory", "pageable"}, {"serialize", "crc32"}, {"durability", "fsync_end"},
                    {"targets", "gpu0"},         {"storage", "disk0"}};

Json metrics(const Json& topology, const Json& workload, const Json& path) {
  const Json doc = {{"name", "n"}, {"topology", topology}, {"workload", workload}, {"paths", Json::array({path})}};
  return to_json(run_scenario(scenario_from_json(doc, "n.json", IOWALL_SOURCE_DIR)))["metrics"]["cpu_cached"];
}

double phase_s(const Json& m, const char* name) {
  for (const Json& p : m["phases"])
    if (p["name"] == name) return p["seconds"];
  FAIL("no phase " << name);
  return 0;
}

std::string refusal(const Json& topology) {
  try {
    metrics(topology, kSave, {{"name", "cpu_cached"}});
  } catch (const InputError& e) {
    return e.where() + ": " + e.pointer();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("a topology's settings for a path apply where the scenario leaves them out, and the scenario's win",
          "[config][node]") {
  Json slow = machine();
  slow["paths"] = {{"cpu_cached", {{"flusher_bandwidth", "1 GB/s"}}}};
  const Json plain = metrics(machine(), kSave, {{"name", "cpu_cached"}});
  const Json by_node = metrics(slow, kSave, {{"name", "cpu_cached"}});
  const Json by_scenario = metrics(machine(), kSave, {{"name", "cpu_cached"}, {"flusher_bandwidth", "1 GB/s"}});
  const Json both = metrics(slow, kSave, {{"name", "cpu_cached"}, {"flusher_bandwidth", "10 GB/s"}});
  // The flusher at 1 GB/s turns 2 GiB into writeback requests in 2.15 s, slower than the
  // drive's 4.31 GB/s (0.50 s): the fsync takes at least that; at the default 10 GB/s it
  // does not bound the fsync.
  CHECK(phase_s(by_node, "fsync") >= 2 * 1073741824.0 / 1e9 - 0.05);
  CHECK(phase_s(plain, "fsync") < 1.0);
  CHECK(by_node["durable_s"] == by_scenario["durable_s"]);
  CHECK(both["durable_s"] == plain["durable_s"]);
}

TEST_CASE("the cpu_socket's CRC-32 rate sets a serializer's pass unless the workload gives its own", "[config][node]") {
  Json slow_crc = machine();
  for (Json& d : slow_crc["devices"])
    if (d["model"] == "cpu_socket") d["crc32_per_core"] = "1 GB/s";
  const Json plain = metrics(machine(), kSave, {{"name", "cpu_cached"}});
  const Json by_cpu = metrics(slow_crc, kSave, {{"name", "cpu_cached"}});
  Json given = kSave;
  given["crc32_bandwidth"] = "1 GB/s";
  const Json by_workload = metrics(machine(), given, {{"name", "cpu_cached"}});
  given["crc32_bandwidth"] = "3.98 GB/s";
  const Json workload_wins = metrics(slow_crc, given, {{"name", "cpu_cached"}});
  // The pass runs on the rank's thread before each write: 2 GiB at 1 GB/s is 2.15 s of it,
  // against 0.54 s at the default 3.98 GB/s.
  CHECK(phase_s(by_cpu, "serialize_write") - phase_s(plain, "serialize_write") ==
        Approx(2 * 1073741824.0 * (1 / 1e9 - 1 / 3.98e9)).epsilon(0.05));
  CHECK(by_cpu["durable_s"] == by_workload["durable_s"]);
  CHECK(workload_wins["durable_s"] == plain["durable_s"]);
}

TEST_CASE("a bad value or an unknown key in a topology's path settings names the topology's pointer",
          "[config][node][errors]") {
  Json bad = machine();
  bad["paths"] = {{"cpu_cached", {{"flusher_bandwidth", "fast"}}}};
  CHECK(refusal(bad) == "n.json: /topology/paths/cpu_cached/flusher_bandwidth");
  bad["paths"] = {{"cpu_cached", {{"flusher_bandwith", "1 GB/s"}}}};
  CHECK(refusal(bad).rfind("n.json: /topology/paths/cpu_cached", 0) == 0);
  bad["paths"] = {{"cpu_cachd", Json::object()}};
  CHECK(refusal(bad).rfind("n.json: /topology/paths", 0) == 0);
}
