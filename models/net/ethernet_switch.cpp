#include "models/net/ethernet_switch.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

EthernetSwitch::EthernetSwitch(const Params& p, SimContext& ctx) : Device(p, ctx) {
  for (i64 i = 0; i < ports_count; ++i) make_port("p" + std::to_string(i), "network port", PortRole::network);
}

IOWALL_REGISTER_DEVICE(EthernetSwitch, "ethernet_switch",
                       "Network switch joining NICs: forwarding latency; each port's link is a served resource");

}  // namespace iowall
