// Where checkpoints go: local NVMe, NVMe-oF, a parallel file system, an object store.
// Each is a handful of numbers (aggregate, per-node and per-client bandwidth, request
// and per-file latency, capacity); every preset value names its source or says it is
// an assumption, and every one can be overridden from the command line or scenario.
#pragma once
#include <string>
#include <vector>

namespace iowall::plan {

struct StorageTarget {
  std::string kind;               // local-nvme | nvme-of | pfs | object
  double write_bw = 0, read_bw = 0;            // aggregate B/s; 0 = scales with nodes (local)
  double node_write_bw = 0, node_read_bw = 0;  // per node: NICs to storage, or local drives
  double client_bw = 0;           // one rank's client ceiling (software, connections); 0 = none
  double request_latency = 0;     // s, one request's service time as the client sees it
  double io_size = 0;             // bytes per request
  int queue_depth = 1;            // requests one rank keeps in flight
  double file_latency = 0;        // s, create + commit of one rank's file
  double capacity = 0;            // bytes of the whole target; 0 = not limited
  double capacity_per_node = 0;   // local targets: bytes per node
  double server_write_bw = 0;     // one storage server (or SSD for local), for counts
  std::string server_unit;        // "server" or "SSD per node"
  std::vector<std::string> notes;  // sources and assumptions, one per parameter
  // Little's law: a rank with queue_depth requests of io_size in flight, each taking
  // request_latency, cannot go faster than this.
  double latency_bound_bw() const;
  double client_cap() const;  // min of client_bw and the latency bound (0 = none)
};

// The preset for `kind`; throws InputError (option `--target`) for an unknown kind.
StorageTarget storage_preset(const std::string& kind);
const std::vector<std::string>& storage_kinds();

}  // namespace iowall::plan
