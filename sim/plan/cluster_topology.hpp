// A small described cluster as one topology the chunk-level simulator runs: every
// node is a copy of its node topology (device ids prefixed "n<k>_"), its first storage
// NICs cabled to Ethernet leaf switches as the fabric places them (rail i's leaf for NIC
// i of a rail-optimized fabric), every leaf joined to one spine switch, storage leaves
// under the spine, and each storage server built as a host (a CPU socket, DRAM, a root
// complex) with one PCIe switch per NIC port holding that NIC and its share of the
// drives. The spine planes fold into one spine switch whose link from a leaf carries
// the leaf's uplinks together (perfect ECMP: the chunk simulator routes by shortest
// path, one route per pair); with one plane the routes are the flow planner's.
#pragma once
#include <string>
#include <vector>

#include "sim/core/params.hpp"
#include "sim/plan/cluster.hpp"

namespace iowall::plan {

struct ClusterTopology {
  Json topology;                          // the topology document
  std::vector<std::string> rank_gpus;     // rank r's GPU id (node r / GPUs per node)
  std::vector<std::string> drives;        // every storage server drive id, server by server
};

// The largest cluster (in GPUs) the chunk-level planner builds as one topology.
inline constexpr int kChunkClusterMaxGpus = 256;

// Builds the topology of `c` (InputError at `option` past kChunkClusterMaxGpus).
ClusterTopology cluster_topology(const ClusterSpec& c, const std::string& option);

}  // namespace iowall::plan
