// Bad parallel-file-system and object-store input through the real program: one line
// naming the file and the JSON pointer, exit code 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_iowall.hpp"

namespace {

std::string scenario_file(const nlohmann::json& path) {
  static int n = 0;
  const std::string file = "/tmp/iowall_pfs_" + std::to_string(getpid()) + "_" + std::to_string(n++) + ".json";
  const nlohmann::json doc = {
      {"name", "bad"},
      {"topology", std::string(IOWALL_SOURCE_DIR) + "/topologies/pfs-4oss.json"},
      {"workload",
       {{"kind", "sequential_read"}, {"size", "64 MiB"}, {"io_size", "1 MiB"}, {"targets", "gpu0"}, {"storage", "all"}}},
      {"paths", nlohmann::json::array({path})}};
  std::ofstream(file) << doc.dump(2);
  return file;
}

}  // namespace

TEST_CASE("bad pfs and object store input is one line naming the file and pointer, exit code 2", "[pfs][objstore][cli][errors]") {
  struct Case {
    nlohmann::json path;
    std::string pointer, words;
  };
  const nlohmann::json pfs = {{"name", "pfs"}, {"mds_nic", "mdsnic"}};
  auto with = [&](const char* key, const nlohmann::json& value) {
    nlohmann::json p = pfs;
    p[key] = value;
    return p;
  };
  const Case cases[] = {
      {with("stripe_count", 9), "/paths/0/stripe_count", "larger than the 8 OSTs"},
      {with("stripe_size", "96 KiB"), "/paths/0/stripe_size", "not a positive multiple of 64 KiB"},
      {with("stripe_size", "0 B"), "/paths/0/stripe_size", "not a positive multiple of 64 KiB"},
      {with("transport", "carrier-pigeon"), "/paths/0/transport", "carrier-pigeon"},
      {with("mds_nic", "ost0"), "/paths/0/mds_nic", "not a nic"},
      {{{"name", "object_store"}, {"transport", "smoke-signals"}}, "/paths/0/transport", "smoke-signals"},
      {{{"name", "object_store"}, {"part_size", "1000 B"}}, "/paths/0/part_size", "multiple of 4 KiB"},
  };
  for (const Case& c : cases) {
    const std::string file = scenario_file(c.path);
    const auto r = iowall::testing::run_iowall("run " + file);
    std::remove(file.c_str());
    INFO(c.path.dump() << " -> " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("iowall: " + file + ": " + c.pointer + ":", 0) == 0);
    CHECK(r.err.find(c.words) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}
