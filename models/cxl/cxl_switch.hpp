// A CXL switch: ports joined to hosts, GPUs and memory devices. A message crossing it
// pays its port-to-port latency; messages from several hosts to one device share the
// device's link (its flits), which is where pooling contention shows.
#pragma once
#include "sim/core/device.hpp"

namespace iowall {

class CxlSwitch final : public Device {
public:
  CxlSwitch(const Params& p, SimContext& ctx);
  bool forwards() const override { return true; }
  Time forwarding_latency() const override { return latency; }

  IOWALL_PARAM(Time, latency, "105 ns", "port-to-port latency of one crossing",
               "assumption: as a Gen5 PCIe switch, Broadcom PEX88000 105 ns (figures.md); Pond (ASPLOS'23) "
               "reports a switch level adding latency beyond the +70-90 ns of a direct-attached pool");
  IOWALL_PARAM_INT(ports, 8, 2, 256, "ports p0..pN-1 (hosts, GPUs and memory devices alike)", "switch datasheet");
};

}  // namespace iowall
