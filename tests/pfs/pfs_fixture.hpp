// Scenarios on topologies/pfs-4oss.json (a GPU client, four OSS with two OSTs each and
// an MDS behind one switch), edited per test, run through the library as `iowall run`.
#pragma once
#include <fstream>
#include <string>

#include "tests/nvmeof/nvmeof_fixture.hpp"

namespace iowall::testing {

inline Json pfs_topology() {
  std::ifstream in(std::string(IOWALL_SOURCE_DIR) + "/topologies/pfs-4oss.json");
  return Json::parse(in);
}

inline Json pfs_reads(const std::string& size, const std::string& io_size, int threads, int qd,
                      const std::string& kind = "sequential_read") {
  return {{"kind", kind},       {"size", size},       {"io_size", io_size}, {"threads", threads},
          {"qd", qd},           {"targets", "gpu0"}, {"storage", "all"}};
}

// A pfs path reading one file of `file_size`, striped over `stripe_count` OSTs.
inline Json pfs_path(const std::string& label, int stripe_count, const std::string& file_size) {
  return {{"name", "pfs"}, {"label", label}, {"mds_nic", "mdsnic"}, {"stripe_count", stripe_count},
          {"file_size", file_size}};
}

// RoCEv2 at a 4096 B path MTU: 82 B of headers per packet (models/net/ethernet_link.cpp).
inline double roce_payload_GBps(double line_Gbps) { return line_Gbps / 8 * 4096.0 / (4096 + 82); }

inline double gbps(const Json& r, const std::string& path) { return r["metrics"][path]["throughput_GBps"]; }

}  // namespace iowall::testing
