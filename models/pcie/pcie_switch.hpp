// A PCIe switch: one upstream port and N downstream ports; bytes cross it with its
// cut-through latency, and every downstream port shares the upstream link.
#pragma once
#include "sim/core/device.hpp"

namespace iowall {

class PcieSwitch final : public Device {
public:
  PcieSwitch(const Params& p, SimContext& ctx);
  Time forwarding_latency() const override { return latency; }

  IOWALL_PARAM(Time, latency, "105 ns", "port-to-port cut-through latency (x16 to x16)",
               "Broadcom PEX88000 Gen4, Linley 2019 (figures.md)");
  IOWALL_PARAM_INT(downstream_ports, 8, 1, 128, "number of downstream ports dn0..dnN-1", "switch datasheet");
  IOWALL_PORT(up, "upstream port, towards the root complex", PortRole::pcie_upstream);
};

}  // namespace iowall
