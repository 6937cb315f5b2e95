#include "models/pcie/root_complex.hpp"

#include "sim/config/registry.hpp"
#include "sim/core/route.hpp"

namespace iowall {

RootComplex::RootComplex(const Params& p, SimContext& ctx) : Device(p, ctx) {
  for (i64 i = 0; i < root_ports; ++i)
    make_port("rp" + std::to_string(i), "root port", PortRole::pcie_downstream);
  p2p_ = std::make_unique<Server>(*this, "p2p");
}

void RootComplex::transit(const Port& in, const Port& out, std::vector<Hop>& hops) {
  const bool in_io = in.role() == PortRole::pcie_downstream || &in == &peer;
  const bool out_io = out.role() == PortRole::pcie_downstream || &out == &peer;
  if (!in_io || !out_io) return;  // device <-> memory or CPU: the host bridge, not P2P
  Hop h;
  h.server = p2p_.get();
  h.bandwidth = p2p_bandwidth;
  h.label = name() + " p2p";
  hops.push_back(h);
}

IOWALL_REGISTER_DEVICE(RootComplex, "root_complex", "PCIe root complex with root ports, host bridge and P2P bridge");

}  // namespace iowall
