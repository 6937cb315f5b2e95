// A network switch joining NICs (and other switches) by their network ports, so that
// one client reaches several storage servers: routes cross it with its forwarding
// latency, and each of its ports' links is a resource per direction, so the port
// facing a client carries everything the servers send to that client. A data path that
// simulates the network per packet (nvmeof_rdma's "fabric": "packet") takes the
// switch's shared buffer, PFC thresholds and ECN marking from here.
#pragma once
#include "models/net/dcqcn.hpp"
#include "models/net/pfc.hpp"
#include "sim/core/device.hpp"

namespace iowall {

class EthernetSwitch final : public Device {
public:
  EthernetSwitch(const Params& p, SimContext& ctx);
  bool forwards() const override { return true; }
  Time forwarding_latency() const override { return latency; }
  bool port_required(const Port&) const override { return false; }

  IOWALL_PARAM(Time, latency, "600 ns", "port-to-port forwarding latency (cut-through)",
               "assumption: order of published cut-through latencies of 400G data-centre switches");
  IOWALL_PARAM_INT(ports_count, 8, 1, 512, "number of network ports p0..pN-1", "switch datasheet");
  // Used only when a path simulates the network per packet.
  IOWALL_PARAM(Bytes, buffer, "16 MB", "shared packet buffer (per-packet network only)", "Broadcom Tomahawk 2: 16 MB");
  net::PfcConfig pfc;
  net::EcnConfig ecn;
};

}  // namespace iowall
