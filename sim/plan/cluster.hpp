// A cluster as the checkpoint planner sees it: GPU nodes of one type (a node topology,
// whose GPUs and NICs are counted, and how many such nodes), a generated two-tier
// leaf/spine fat-tree between them and the storage (plain, or rail-optimized: NIC i of
// every node on rail i's own leaves), and storage servers, each with its NIC ports and
// drives, under storage leaves of their own. Each leaf has one uplink to every spine
// plane (a plane stands for the switches above a leaf's uplink; a third tier is folded
// into it), as many uplinks as down ports over the oversubscription; storage leaves are
// non-blocking. The routes are what the flow-level planner simulates: a rank's bytes go
// through its node NIC (GPU i uses NIC i mod NICs), its leaf's uplink to the spine plane
// its flow hashes to (ECMP per flow), that plane's link to the server's storage leaf,
// one of the server's NIC ports and the server's drives. Every bandwidth of a description
// may carry an uncertainty (ClusterSpread); counts and the oversubscription are exact.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/params.hpp"
#include "sim/core/uncertain.hpp"
#include "sim/plan/storage_target.hpp"

namespace iowall::plan {

struct ClusterNodes {
  std::string topology;   // as given (a shipped name or a file)
  int count = 0;          // nodes
  int gpus = 0;           // per node, counted in the topology
  int nics = 0;           // storage-facing NIC ports per node (default: the topology's NICs)
  double nic_bw = 0;      // B/s per port
  Json node_topology;     // the node topology's document, as read
};

struct ClusterFabric {
  std::string kind;            // fat_tree | rail_optimized
  int nodes_per_leaf = 0;
  double link_bw = 0;          // B/s per link between switches
  double oversubscription = 1; // a leaf's down ports per uplink
  // Derived.
  int rails = 1;               // rail_optimized: the nodes' NIC count; fat_tree: 1
  int down_ports = 0;          // per compute leaf
  int uplinks = 0;             // per compute leaf = spine planes
  int compute_leaves = 0;
};

struct ClusterStorage {
  std::string kind;  // pfs | nvme-of | object: the planner's request and file latencies
  int servers = 0;
  int servers_per_leaf = 0;
  int nics = 0;            // per server
  double nic_bw = 0;       // B/s per port
  int drives = 0;          // per server
  double drive_write_bw = 0, drive_read_bw = 0;  // B/s per drive
  int storage_leaves = 0;  // derived
  double server_write_bw() const;  // min(NIC ports, drives) of one server
  double server_read_bw() const;
};

// A bandwidth of the description given with its uncertainty ("100 GB/s +- 10%",
// "20 GB/s .. 24 GB/s", sim/core/uncertain.hpp): the cluster is planned at its nominal
// value; `plan checkpoint --uncertainty` draws it per sample (set_cluster_value).
struct ClusterSpread {
  std::string field;    // inside the description: "/storage/server/drive_write"
  std::string pointer;  // in its file (with the description's base)
  std::string text;     // as written
  Uncertain u;
};

struct ClusterSpec {
  std::string name, description, file;
  std::vector<std::string> sources;
  ClusterNodes nodes;
  ClusterFabric fabric;
  ClusterStorage storage;
  std::vector<ClusterSpread> spreads;  // in the order the description is read
  int gpus() const { return nodes.count * nodes.gpus; }
  // The routes both the flow and the chunk fidelity follow: the compute leaf NIC `port` of
  // node `node` is cabled to (rail `port`'s leaves when rail-optimized), and how many links
  // join one storage leaf to one spine plane (its ports spread over the planes).
  int compute_leaf(int node, int port) const;
  int storage_links_per_plane() const;
  // Between all compute leaves and the spine planes, per direction (B/s).
  double fabric_uplink_bw() const;
  // What the storage servers' NIC ports and drives carry together, and what the spine
  // planes can deliver to the storage leaves.
  double storage_write_ceiling() const;
  double storage_read_ceiling() const;
};

// Reads and checks a cluster description (InputError with file and JSON pointer).
// Relative node topologies resolve against `directory` first (the description's folder).
ClusterSpec load_cluster(const std::string& file, const std::string& relative_to = {});
// `base`: the description's JSON pointer inside `file` ("" when it is the whole file).
ClusterSpec cluster_from_json(const Json& doc, const std::string& file, const std::string& directory,
                              const std::string& base = "");
// The summary `iowall topo show` prints for a cluster, and its JSON.
Json cluster_summary(const ClusterSpec& c);
std::string cluster_summary_text(const Json& summary);
// Whether a JSON document is a cluster description (has "nodes" and "fabric").
bool is_cluster(const Json& doc);

// Sets the bandwidth at `field` (a ClusterSpread's) to `value` (bits per second, the
// bandwidth's base unit).
void set_cluster_value(ClusterSpec& c, const std::string& field, i64 value);

// Works out the fabric's and storage's derived counts (rails, ports, leaves) from the
// described ones; called after reading, and after a what-if edit.
void derive(ClusterSpec& c);
// The cluster's storage as the planner's target: the servers' ports and drives together,
// the nodes' storage NICs, one server for counts; latencies from the kind's preset.
StorageTarget cluster_storage(const ClusterSpec& c);
// The bandwidths cluster_storage sets (aggregate, per node, per server), on a target
// whose other settings stay: what a what-if edit of the cluster changes.
void set_cluster_bandwidths(StorageTarget& t, const ClusterSpec& c);

// A deterministic hash for ECMP: the spine plane a flow takes.
std::uint64_t ecmp_hash(std::uint64_t flow);

}  // namespace iowall::plan
