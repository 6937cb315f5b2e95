// The fabric experiments of issue 6, each a small topology on Fabric: the PFC skid
// against the headroom formula, congestion spreading to an innocent flow, and an
// incast of N DCQCN senders into one receiver.
#pragma once
#include <vector>

#include "models/net/fabric.hpp"

namespace iowall::net {

// Reads the fabric parameters (buffer, frame, PFC, ECN, DCQCN) with their sources.
FabricConfig read_fabric_config(const Params& p, Bandwidth line_rate);

struct SkidResult {
  Headroom formula;
  Bytes headroom;          // formula at the link rate
  Bytes max_skid;          // most bytes that arrived after an XOFF, over all episodes
  std::uint64_t pauses = 0, drops = 0;
};
// A sender at line rate into a switch whose egress is `drain` times slower; a third
// host keeps the switch's link back to the sender busy with full frames, so a PAUSE
// waits for a frame in service as the worst case assumes.
SkidResult run_skid(SimContext& ctx, const FabricConfig& cfg, Bandwidth rate, double cable_m, Time duration,
                    int drain = 4);

struct SpreadResult {
  double culprit_Gbps = 0, innocent_Gbps = 0;  // over [measure_from, duration]
  double innocent_alone_Gbps = 0;               // its line rate less framing: nothing else limits it
  Time innocent_paused;    // time the innocent sender's NIC spent paused
  std::uint64_t pauses_upstream = 0, drops = 0;
  Bytes max_held;          // most bytes of one priority any switch ingress held
};
// Culprit H1 -> S1 -> S2 -> slow receiver R1; innocent H2 -> S1 -> S2 -> R2. The
// S1-S2 uplink is `uplink` fast, so the two flows share no bottleneck.
SpreadResult run_spread(SimContext& ctx, const FabricConfig& cfg, Bandwidth rate, Bandwidth uplink,
                        Bandwidth slow, double cable_m, Time duration, Time measure_from);

struct IncastResult {
  std::vector<double> flow_Gbps;   // each flow over the measurement window
  double jain = 0;                 // Jain's fairness index of flow_Gbps
  double total_Gbps = 0;
  Time converged;                  // from when every `window` stays within tolerance of fair
  double mean_queue = 0;           // bottleneck egress queue, bytes, over the window
  Bytes min_queue, max_queue;
  std::uint64_t pauses = 0, drops = 0, cnps = 0;
};
// N senders through one switch into one receiver, all links at `rate`.
IncastResult run_incast(SimContext& ctx, const FabricConfig& cfg, int senders, Bandwidth rate, double cable_m,
                        Time duration, Time measure_from, double tolerance, Time window);

// Throws InputError when XOFF plus the headroom for `rate` and `cable_m` exceeds the buffer.
void check_fabric(const FabricConfig& c, Bandwidth rate, double cable_m, const std::string& where);

double jain_index(const std::vector<double>& x);

}  // namespace iowall::net
