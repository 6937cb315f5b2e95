#include "models/pcie/root_complex.hpp"

#include "sim/config/registry.hpp"
#include "sim/core/route.hpp"

namespace iowall {

RootComplex::RootComplex(const Params& p, SimContext& ctx) : Device(p, ctx) {
  for (i64 i = 0; i < root_ports; ++i)
    make_port("rp" + std::to_string(i), "root port", PortRole::pcie_downstream);
  p2p_ = std::make_unique<Server>(*this, "p2p");
  p2p_->set_carries("peer-to-peer TLPs");
  if (iommu) iommu_ = std::make_unique<Server>(*this, "iommu");
  if (iommu_) iommu_->set_carries("address translation");
}

void RootComplex::transit(const Port& in, const Port& out, bool to_memory, std::vector<Hop>& hops) {
  const bool in_io = in.role() == PortRole::pcie_downstream || &in == &peer;
  const bool out_io = out.role() == PortRole::pcie_downstream || &out == &peer;
  if (iommu_ && (&in == &mem || &out == &mem) && (in_io || out_io)) {
    // Every page a device touches in memory is translated; misses are resolved by
    // `page_walkers` walks in parallel.
    Hop h;
    h.server = iommu_.get();
    h.bandwidth = throughput(iommu_page_size * page_walkers, std::max(iotlb_miss_penalty, Time(1)));
    h.latency = iotlb_miss_penalty;
    h.label = name() + " iommu";
    hops.push_back(h);
    return;
  }
  if (!in_io || !out_io) return;  // device <-> memory or CPU: the host bridge, not P2P
  // Towards or from the other socket's memory: the inter-socket link, not the bridge.
  if (to_memory && (&in == &peer || &out == &peer)) return;
  Hop h;
  h.server = p2p_.get();
  h.bandwidth = p2p_bandwidth;
  h.label = name() + " p2p";
  hops.push_back(h);
}

IOWALL_REGISTER_DEVICE(RootComplex, "root_complex", "PCIe root complex with root ports, host bridge and P2P bridge");

}  // namespace iowall
