// An InfiniBand switch: cut-through forwarding with a fixed port-to-port latency, and
// link-level credit-based flow control instead of Ethernet's PAUSE: a sender starts a
// packet on a link only while the receiving port has advertised buffer credits for the
// packet's virtual lane, so the fabric is lossless without thresholds or headroom and
// congestion backs up hop by hop (IBA spec vol. 1, 7.9 flow control). Each port's
// receive buffer is split evenly over the data virtual lanes in use (a static VL
// partition); storage traffic rides one lane (SL 0 -> VL 0, OpenSM's default SL2VL
// map), so its credits are the buffer over the lanes. Congestion control (FECN/BECN) is
// off, as OpenSM ships it: no marks, no rate cuts. In the served network a route
// crossing it adds the forwarding latency; each port's link is a resource per direction.
#pragma once
#include "sim/core/device.hpp"

namespace iowall {

class InfinibandSwitch final : public Device {
public:
  InfinibandSwitch(const Params& p, SimContext& ctx);
  bool forwards() const override { return true; }
  Time forwarding_latency() const override { return latency; }
  bool port_required(const Port&) const override { return false; }
  // Credits one port advertises to its upstream for the storage traffic's lane.
  Bytes credits_per_lane() const { return port_buffer / data_vls; }

  IOWALL_PARAM(Time, latency, "130 ns", "port-to-port forwarding latency (cut-through)",
               "NVIDIA Quantum QM8700 HDR switch datasheet: 130 ns port-to-port");
  IOWALL_PARAM_INT(ports_count, 40, 1, 512, "number of network ports p0..pN-1", "NVIDIA QM8700 datasheet: 40 HDR ports");
  IOWALL_PARAM_INT(data_vls, 8, 1, 15, "data virtual lanes the port buffer is split over",
                   "IBA spec vol. 1, 7.6: up to 15 data VLs; NVIDIA (Mellanox) switches implement 8 (VL0-VL7)");
  IOWALL_PARAM(Bytes, port_buffer, "512 KiB", "receive buffer of one port, over all its data virtual lanes (per-packet network only)",
               "assumption: switch ASICs of this class share tens of MB over 40-64 ports; at least a credit round trip "
               "of a 100 m cable at 200 Gb/s (about 25 KB) per lane");
};

}  // namespace iowall
