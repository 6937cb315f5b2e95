// Bad input for the per-packet network of NVMe-oF paths, through the real program:
// one line naming the file and the JSON pointer, exit code 2.
#include <fstream>

#include "tests/support/bad_scenario.hpp"

namespace {

const std::string kTopology = std::string(IOWALL_SOURCE_DIR) + "/topologies/nvmeof-incast.json";

nlohmann::json scenario(const nlohmann::json& topology, const nlohmann::json& path, const std::string& kind = "sequential_read") {
  return {{"name", "bad"},
          {"topology", topology},
          {"workload", {{"kind", kind}, {"size", "16 MiB"}, {"io_size", "1 MiB"}, {"targets", "gpu0"}, {"storage", "nvme0,nvme1"}}},
          {"paths", nlohmann::json::array({path})}};
}

// The incast topology inline, with the switch (devices/6) given `key` = `value`.
nlohmann::json with_switch(const std::string& key, const nlohmann::json& value) {
  std::ifstream in(kTopology);
  nlohmann::json t = nlohmann::json::parse(in);
  REQUIRE(t["devices"][6]["model"] == "ethernet_switch");
  t["devices"][6][key] = value;
  return t;
}

const nlohmann::json kPacket = {{"name", "nvmeof_rdma"}, {"fabric", "packet"}};

}  // namespace

TEST_CASE("bad per-packet NVMe-oF input is one line naming the file and pointer, exit code 2", "[nvmeof][packet][cli][errors]") {
  using iowall::testing::check_bad_scenario;
  check_bad_scenario(scenario(kTopology, {{"name", "nvmeof_rdma"}, {"fabric", "quantum"}}), "/paths/0/fabric", "quantum");
  check_bad_scenario(scenario(kTopology, kPacket, "sequential_write"), "/paths/0/fabric", "reads only");
  check_bad_scenario(scenario(kTopology, {{"name", "nvmeof_rdma"}, {"fabric", "packet"}, {"min_rate", "200 Gb/s"}}),
                     "/paths/0/min_rate", "rate floor");
  check_bad_scenario(scenario(with_switch("xoff", "20 MB"), kPacket), "/topology/devices/6/xoff",
                     "above the buffer size");
  // 100 Gb/s, 3 m: about 60 KB of headroom does not fit above 15.99 MB of a 16 MB buffer.
  check_bad_scenario(scenario(with_switch("xoff", "15990 KB"), kPacket), "/topology/devices/6/xoff", "headroom");
  check_bad_scenario(scenario(with_switch("pfc", false), kPacket), "/topology/devices/6/pfc", "lossless");
  check_bad_scenario(scenario(with_switch("kmax", "1 KB"), kPacket), "/topology/devices/6/kmax", "kmax");
}
