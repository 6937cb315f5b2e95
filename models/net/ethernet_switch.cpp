#include "models/net/ethernet_switch.hpp"

#include <fmt/format.h>

#include "sim/config/registry.hpp"

namespace iowall {

EthernetSwitch::EthernetSwitch(const Params& p, SimContext& ctx)
    : Device(p, ctx), pfc(net::PfcConfig::read(p)), ecn(net::EcnConfig::read(p)) {
  for (i64 i = 0; i < ports_count; ++i) make_port("p" + std::to_string(i), "network port", PortRole::network);
  if (!buffer.is_positive()) p.fail("buffer", "the buffer must be positive");
  // The headroom above XOFF depends on the links' rates and cables: checked where the
  // per-packet network is built.
  if (pfc.enabled && pfc.xoff > buffer)
    p.fail("xoff", fmt::format("the PFC threshold {} is above the buffer size {}", to_string(pfc.xoff), to_string(buffer)));
  if (pfc.credit && pfc.credits > buffer) p.fail("credits", "the credits of one ingress exceed the buffer size");
}

IOWALL_REGISTER_DEVICE(EthernetSwitch, "ethernet_switch",
                       "Network switch joining NICs: forwarding latency; each port's link is a served resource, or "
                       "packets through a shared buffer with PFC and ECN when a path simulates the network per packet");

}  // namespace iowall
