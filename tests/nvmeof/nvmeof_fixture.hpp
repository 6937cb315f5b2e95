// Scenarios on topologies/nvmeof-2node.json, edited per test: a link's parameters,
// the workload and the paths, run through the library as `iowall run` would.
#pragma once
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

namespace iowall::testing {

inline Json nvmeof_topology() {
  // A path object, not string concatenation: g++ 12's -Warray-bounds misreads the inlined
  // operator+ on the macro's literal where this is called often.
  std::ifstream in(std::filesystem::path(IOWALL_SOURCE_DIR) / "topologies" / "nvmeof-2node.json");
  return Json::parse(in);
}

// The link object of the link whose end "a" is `a` (e.g. "rc0.peer").
inline Json& link_from(Json& topology, const std::string& a) {
  for (Json& l : topology["links"])
    if (l["a"] == a) return l;
  throw std::runtime_error("no link from " + a);
}

inline Json nvmeof_scenario(const Json& topology, const Json& workload, const Json& paths) {
  return {{"name", "t"}, {"topology", topology}, {"workload", workload}, {"paths", paths}, {"seed", 1}};
}

inline Json run_nvmeof(const Json& topology, const Json& workload, const Json& paths) {
  return to_json(run_scenario(scenario_from_json(nvmeof_scenario(topology, workload, paths), "t.json", IOWALL_SOURCE_DIR)));
}

inline Json reads(const std::string& size, const std::string& storage, int threads = 8, int qd = 4) {
  return {{"kind", "sequential_read"}, {"size", size}, {"io_size", "1 MiB"}, {"threads", threads},
          {"qd", qd},                  {"targets", "gpu0"}, {"storage", storage}};
}

}  // namespace iowall::testing
