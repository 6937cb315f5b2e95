// An NVLink switch (NVSwitch): GPUs' NVLink ports meet here; peer copies between GPUs
// take it instead of PCIe. It forwards, with its own latency; the links carry the
// per-direction NVLink bandwidth.
#pragma once
#include "sim/core/device.hpp"

namespace iowall {

class NvSwitch final : public Device {
public:
  NvSwitch(const Params& p, SimContext& ctx) : Device(p, ctx) {
    for (i64 i = 0; i < ports; ++i) make_port("p" + std::to_string(i), "NVLink port", PortRole::any);
  }
  bool forwards() const override { return true; }
  Time forwarding_latency() const override { return latency; }

  IOWALL_PARAM_INT(ports, 16, 1, 256, "NVLink ports p0..pN-1", "NVSwitch datasheet");
  IOWALL_PARAM(Time, latency, "300 ns", "port-to-port latency", "order of magnitude for NVSwitch (assumption)");
};

}  // namespace iowall
