// Bad parallel-file-system and object-store input through the real program: one line
// naming the file and the JSON pointer, exit code 2.
#include "tests/support/bad_scenario.hpp"

namespace {

nlohmann::json scenario(const nlohmann::json& path, const std::string& kind) {
  return {{"name", "bad"},
          {"topology", std::string(IOWALL_SOURCE_DIR) + "/topologies/pfs-4oss.json"},
          {"workload",
           {{"kind", kind}, {"size", "64 MiB"}, {"io_size", "1 MiB"}, {"targets", "gpu0"}, {"storage", "all"}}},
          {"paths", nlohmann::json::array({path})}};
}

nlohmann::json pfs_with(const char* key, const nlohmann::json& value) {
  nlohmann::json p = {{"name", "pfs"}, {"mds_nic", "mdsnic"}};
  p[key] = value;
  return p;
}

}  // namespace

TEST_CASE("bad pfs and object store input is one line naming the file and pointer, exit code 2", "[pfs][objstore][cli][errors]") {
  struct Case {
    nlohmann::json path;
    std::string pointer, words, kind = "sequential_read";
  };
  const Case cases[] = {
      {pfs_with("stripe_count", 9), "/paths/0/stripe_count", "larger than the 8 OSTs"},
      {pfs_with("stripe_size", "96 KiB"), "/paths/0/stripe_size", "not a positive multiple of 64 KiB"},
      {pfs_with("stripe_size", "0 B"), "/paths/0/stripe_size", "must be more than 0 B"},
      {pfs_with("transport", "carrier-pigeon"), "/paths/0/transport", "carrier-pigeon"},
      {pfs_with("mds_nic", "ost0"), "/paths/0/mds_nic", "not a nic"},
      {{{"name", "object_store"}, {"transport", "smoke-signals"}}, "/paths/0/transport", "smoke-signals"},
      {{{"name", "object_store"}, {"part_size", "1000 B"}}, "/paths/0/part_size", "multiple of 4 KiB"},
      {{{"name", "object_store"}}, "/paths/0/transport", "reads only", "random_write"},
  };
  for (const Case& c : cases) iowall::testing::check_bad_scenario(scenario(c.path, c.kind), c.pointer, c.words);
}
