#include "models/net/infiniband_switch.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

InfinibandSwitch::InfinibandSwitch(const Params& p, SimContext& ctx) : Device(p, ctx) {
  for (i64 i = 0; i < ports_count; ++i) make_port("p" + std::to_string(i), "network port", PortRole::network);
  if (!port_buffer.is_positive()) p.fail("port_buffer", "the port buffer must be positive");
}

IOWALL_REGISTER_DEVICE(InfinibandSwitch, "infiniband_switch",
                       "InfiniBand switch: cut-through forwarding latency; each port's link a served resource, or "
                       "packets with link-level credits per virtual lane when a path simulates the network per packet");
IOWALL_PRESET("device", "infiniband_switch", "sb7800", "NVIDIA (Mellanox) Switch-IB 2 SB7800, 36 EDR 100 Gb/s ports",
              "NVIDIA SB7800 datasheet: 36 x 100 Gb/s EDR, 90 ns port-to-port latency",
              R"({"latency": "90 ns", "ports_count": 36})");
IOWALL_PRESET("device", "infiniband_switch", "qm8700", "NVIDIA Quantum QM8700, 40 HDR 200 Gb/s ports",
              "NVIDIA QM8700 datasheet: 40 x 200 Gb/s HDR, 130 ns port-to-port latency",
              R"({"latency": "130 ns", "ports_count": 40})");

}  // namespace iowall
