// A root complex: root ports below, the host bridge to memory and the CPU above.
// Peer-to-peer traffic between two root ports, or between a root port and a device
// under the other socket, crosses its P2P bridge, whose bandwidth is often well below
// the links' (a Server every such transfer shares). A DMA to or from the other
// socket's memory is not peer-to-peer: it crosses the inter-socket link (UPI, Infinity
// Fabric) as coherent memory traffic, which the link between the two peer ports carries. With the IOMMU on, device DMA to memory also
// pays a translation per page: streaming DMA misses the IOTLB once per page, so the
// walkers bound throughput at walkers x page size / miss penalty.
#pragma once
#include <memory>

#include "sim/core/device.hpp"
#include "sim/core/server.hpp"

namespace iowall {

class RootComplex final : public Device {
public:
  RootComplex(const Params& p, SimContext& ctx);
  void transit(const Port& in, const Port& out, bool to_memory, std::vector<Hop>& hops) override;
  Time forwarding_latency() const override { return latency; }
  bool forwards() const override { return true; }

  IOWALL_PARAM(Time, latency, "150 ns", "forwarding latency through the root complex",
               "typical Xeon/EPYC root port to memory, order of magnitude from PCIe latency studies");
  IOWALL_PARAM(Bandwidth, p2p_bandwidth, "20 GB/s", "peer-to-peer forwarding limit between root ports",
               "typical of server CPUs; measure with p2pBandwidthLatencyTest");
  IOWALL_PARAM_INT(root_ports, 4, 1, 64, "number of root ports rp0..rpN-1", "CPU datasheet");
  IOWALL_PARAM_BOOL(iommu, false, "translate device DMA to memory through the IOMMU", "platform setting (intel_iommu=on)");
  IOWALL_PARAM(Bytes, iommu_page_size, "4 KiB", "page size of the DMA mappings (4 KiB, 2 MiB with huge pages)",
               "Linux DMA API; pcie-bench iommu results");
  IOWALL_PARAM(Time, iotlb_miss_penalty, "400 ns", "page-table walk on an IOTLB miss",
               "order of magnitude from pcie-bench (Neugebauer et al., SIGCOMM'18) IOMMU measurements");
  IOWALL_PARAM_INT(page_walkers, 4, 1, 64, "IOTLB misses the IOMMU resolves concurrently", "assumed until measured");
  IOWALL_PORT(mem, "host bridge to memory", PortRole::memory);
  IOWALL_PORT(cpu, "CPU cores (MMIO, interrupts)", PortRole::any);
  IOWALL_PORT(peer, "inter-socket link (UPI, Infinity Fabric) to the other socket's root complex", PortRole::any);
  bool port_required(const Port& p) const override { return &p == &mem || &p == &cpu; }

private:
  std::unique_ptr<Server> p2p_, iommu_;
};

}  // namespace iowall
