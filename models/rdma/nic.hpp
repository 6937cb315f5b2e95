// A network adapter on PCIe: its line rate bounds what crosses it. The RDMA and
// fabric models build on this device.
#pragma once
#include "sim/core/device.hpp"

namespace iowall {

class Nic final : public Device {
public:
  Nic(const Params& p, SimContext& ctx) : Device(p, ctx) {}
  bool port_required(const Port& p) const override { return &p == &up; }

  IOWALL_PARAM(Bandwidth, line_rate, "400 Gb/s", "network line rate per direction", "ConnectX-7 datasheet");
  IOWALL_PORT(up, "PCIe upstream port", PortRole::pcie_upstream);
  IOWALL_PORT(net, "network port", PortRole::network);
};

}  // namespace iowall
