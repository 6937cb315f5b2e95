// Bad nfs_rdma input through the real program: one line naming the file and the JSON
// pointer, exit code 2.
#include "tests/support/bad_scenario.hpp"

namespace {

nlohmann::json scenario(const nlohmann::json& path) {
  return {{"name", "bad"},
          {"topology", std::string(IOWALL_SOURCE_DIR) + "/topologies/dgx2-storage.json"},
          {"workload",
           {{"kind", "sequential_read"}, {"size", "64 MiB"}, {"io_size", "1 MiB"}, {"targets", "gpu0"},
            {"storage", "snvme0"}}},
          {"paths", nlohmann::json::array({path})}};
}

nlohmann::json nfs_with(const char* key, const nlohmann::json& value) {
  nlohmann::json p = {{"name", "nfs_rdma"}, {"drives", "snvme0,snvme1"}};
  p[key] = value;
  return p;
}

}  // namespace

TEST_CASE("bad nfs_rdma input is one line naming the file and pointer, exit code 2", "[nfs][cli][errors]") {
  struct Case {
    nlohmann::json path;
    std::string pointer, words;
  };
  const Case cases[] = {
      {nfs_with("rsize", "0 B"), "/paths/0/rsize", "must be more than 0 B"},
      {nfs_with("rsize", "6 KiB"), "/paths/0/rsize", "not a positive multiple of 4 KiB"},
      {nfs_with("wsize", "1000 B"), "/paths/0/wsize", "not a positive multiple of 4 KiB"},
      {nfs_with("nconnect", 0), "/paths/0/nconnect", "out of range"},
      {nfs_with("nconnect", 17), "/paths/0/nconnect", "out of range"},
      {nfs_with("max_slots", 0), "/paths/0/max_slots", "out of range"},
      {nfs_with("transport", "carrier-pigeon"), "/paths/0/transport", "carrier-pigeon"},
      {nfs_with("transport", "tcp"), "/paths/0/transport", "NFS over TCP is not modelled"},
      {nfs_with("server_cache_hit_ratio", 1.5), "/paths/0/server_cache_hit_ratio", "out of range (expected 0 to 1)"},
      {nfs_with("target_cost", "5 us"), "/paths/0/target_cost", "server_rpc_cost"},
      {nfs_with("initiator_handoffs", 2), "/paths/0/initiator_handoffs", "client_handoffs"},
      {nfs_with("target_handoffs", 2), "/paths/0/target_handoffs", "server_handoffs"},
      {nfs_with("client_handoffs", -1), "/paths/0/client_handoffs", "out of range"},
      {nfs_with("server_handoffs", 17), "/paths/0/server_handoffs", "out of range"},
      {nfs_with("handoff_cost", "-1 us"), "/paths/0/handoff_cost", "handoff_cost"},
      {nfs_with("drives", "gpu0"), "/paths/0/drives", "not block storage"},
  };
  for (const Case& c : cases) iowall::testing::check_bad_scenario(scenario(c.path), c.pointer, c.words);
}
