// A network adapter on PCIe: its line rate bounds what crosses it. The RDMA and
// fabric models build on this device; its HCA parameters drive models/rdma/hca.
#pragma once
#include "models/rdma/hca.hpp"
#include "sim/core/device.hpp"

namespace iowall {

class Nic final : public Device {
public:
  Nic(const Params& p, SimContext& ctx) : Device(p, ctx) {}
  bool port_required(const Port& p) const override { return &p == &up; }

  IOWALL_PARAM(Bandwidth, line_rate, "400 Gb/s", "network line rate per direction", "ConnectX-7 datasheet");
  IOWALL_PARAM(Rate, message_rate, "200 M/s", "work queue entries the HCA engine processes per second",
               "NVIDIA ConnectX-6/7 product briefs: up to 215 M messages per second");
  IOWALL_PARAM(Time, pipeline_latency, "300 ns",
               "HCA processing between its PCIe side and its wire, each way (added where a route crosses it)",
               "assumption: perftest ib_write_lat is about 1 us host to host on ConnectX-6/7, of which two "
               "PCIe crossings and the cable are modelled separately");
  IOWALL_PARAM_INT(mtt_cache_lines, 128, 1, i64{1} << 30, "translation lines (MPT entries, MTT lines) the HCA caches",
                   "seed 001: 64-128 entries per port (vendors publish no size)");
  IOWALL_PARAM_INT(mtt_per_line, 8, 1, 64, "MTT entries brought by one 64 B PCIe read",
                   "Linux mlx5 driver: an MTT entry is one 8 B big-endian address");
  rdma::HcaConfig hca_config() const { return {message_rate, mtt_cache_lines, mtt_per_line}; }
  IOWALL_PORT(up, "PCIe upstream port", PortRole::pcie_upstream);
  IOWALL_PORT(net, "network port", PortRole::network);
};

}  // namespace iowall
