// Bad NVMe-oF input through the real program: one line naming the file and the JSON
// pointer, exit code 2.
#include "tests/support/bad_scenario.hpp"

namespace {

// A scenario reading gpu0's data from `storage` through `path`.
nlohmann::json scenario(const nlohmann::json& path, const std::string& storage, const std::string& kind) {
  return {{"name", "bad"},
          {"topology", std::string(IOWALL_SOURCE_DIR) + "/topologies/nvmeof-2node.json"},
          {"workload", {{"kind", kind}, {"size", "64 MiB"}, {"io_size", "1 MiB"}, {"targets", "gpu0"}, {"storage", storage}}},
          {"paths", nlohmann::json::array({path})}};
}

}  // namespace

TEST_CASE("bad NVMe-oF input is one line naming the file and pointer, exit code 2", "[nvmeof][cli][errors]") {
  struct Case {
    nlohmann::json path;
    std::string storage, pointer, words, kind = "sequential_read";
  };
  const Case cases[] = {
      // The client's NIC reaches the storage server, but lnvme0 is in the client itself.
      {{{"name", "nvmeof_rdma"}}, "lnvme0", "/paths/0", "no route between gpu0 and lnvme0"},
      {{{"name", "nvmeof_rdma"}, {"nic", "tnic0"}}, "nvme0", "/paths/0/nic", "no route between gpu0 and tnic0"},
      // An H100 has 80 GB of HBM.
      {{{"name", "nvmeof_rdma"}, {"registered_memory", "100 GB"}}, "nvme0", "/paths/0/registered_memory",
       "cannot register"},
      {{{"name", "nvmeof_rdma"}, {"buffer", "host"}, {"registered_memory", "2 TiB"}}, "nvme0",
       "/paths/0/registered_memory", "dram0 has only 1 TiB"},
      {{{"name", "nvmeof"}, {"transport", "carrier-pigeon"}}, "nvme0", "/paths/0/transport", "carrier-pigeon"},
      {{{"name", "nvmeof_tcp"}}, "nvme0", "/paths/0", "simulates reads only", "sequential_write"},
  };
  for (const Case& c : cases) iowall::testing::check_bad_scenario(scenario(c.path, c.storage, c.kind), c.pointer, c.words);
}
