// Scenarios on topologies/dgx2-storage.json (the DGX-2-class node, a RoCEv2 switch and
// a storage server with eight drives), reading into gpu0 through the nfs_rdma path, run
// through the library as `iowall run` would.
#pragma once
#include <fstream>
#include <string>

#include "tests/nvmeof/nvmeof_fixture.hpp"

namespace iowall::testing {

inline const char* kServerDrives = "snvme0,snvme1,snvme2,snvme3,snvme4,snvme5,snvme6,snvme7";

inline Json dgx2_storage_topology() {
  std::ifstream in(std::string(IOWALL_SOURCE_DIR) + "/topologies/dgx2-storage.json");
  return Json::parse(in);
}

inline Json nfs_reads(const std::string& size, const std::string& io_size, int threads, int qd) {
  return {{"kind", "sequential_read"}, {"size", size},      {"io_size", io_size},        {"threads", threads},
          {"qd", qd},                  {"targets", "gpu0"}, {"storage", kServerDrives}};
}

// An nfs_rdma path over all the server's drives (or `drives`), with `extra` keys.
inline Json nfs_path(const std::string& label, Json extra = Json::object(), const std::string& drives = kServerDrives) {
  Json p = {{"name", "nfs_rdma"}, {"label", label}, {"drives", drives}};
  p.update(extra);
  return p;
}

inline Json run_nfs(const Json& workload, const Json& paths, Json topology = dgx2_storage_topology()) {
  return run_nvmeof(topology, workload, paths);
}

inline double nfs_stat(const Json& r, const std::string& label, const std::string& stat, const char* field) {
  return r["stats"][label][stat][field].get<double>();
}

}  // namespace iowall::testing
