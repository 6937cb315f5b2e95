// Packet spraying (Ultra Ethernet) against ECMP flow hashing (RoCEv2) on a two-leaf,
// S-spine fabric: the same senders, receivers, links and congestion control, only the
// choice of spine differs. Spraying needs the receiver to put packets back in order.
#pragma once
#include <vector>

#include "models/net/fabric.hpp"

namespace iowall::net {

enum class Pattern { permutation, incast };  // sender i -> receiver i, or all -> receiver 0

struct MultipathRun {
  int senders = 4, spines = 4;
  Bandwidth host_rate, uplink;
  double cable_m = 2;
  Pattern pattern = Pattern::permutation;
  Multipath mode = Multipath::ecmp;
  Time duration, measure_from;
};

struct MultipathResult {
  std::vector<double> flow_Gbps;
  std::vector<int> spine_flows;  // ECMP: flows hashed onto each spine
  double total_Gbps = 0, min_Gbps = 0;
  std::uint64_t out_of_order = 0, pauses = 0, drops = 0;
  Bytes max_reorder;             // largest reorder buffer of any receiver flow
};

MultipathResult run_multipath(SimContext& ctx, const FabricConfig& cfg, const MultipathRun& run);

}  // namespace iowall::net
