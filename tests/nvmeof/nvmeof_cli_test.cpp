// Bad NVMe-oF input through the real program: one line naming the file and the JSON
// pointer, exit code 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_iowall.hpp"

namespace {

// A scenario file reading gpu0's data from `storage` through `path`.
std::string scenario_file(const nlohmann::json& path, const std::string& storage,
                          const std::string& kind = "sequential_read") {
  static int n = 0;
  const std::string file = "/tmp/iowall_nvmeof_" + std::to_string(getpid()) + "_" + std::to_string(n++) + ".json";
  const nlohmann::json doc = {
      {"name", "bad"},
      {"topology", std::string(IOWALL_SOURCE_DIR) + "/topologies/nvmeof-2node.json"},
      {"workload",
       {{"kind", kind}, {"size", "64 MiB"}, {"io_size", "1 MiB"}, {"targets", "gpu0"}, {"storage", storage}}},
      {"paths", nlohmann::json::array({path})}};
  std::ofstream(file) << doc.dump(2);
  return file;
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
  for (const Case& c : cases) {
    const std::string file = scenario_file(c.path, c.storage, c.kind);
    const auto r = iowall::testing::run_iowall("run " + file);
    std::remove(file.c_str());
    INFO(c.path.dump() << " -> " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("iowall: " + file + ": " + c.pointer + ":", 0) == 0);
    CHECK(r.err.find(c.words) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}
