#include "models/pcie/pcie_switch.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

PcieSwitch::PcieSwitch(const Params& p, SimContext& ctx) : Device(p, ctx) {
  for (i64 i = 0; i < downstream_ports; ++i)
    make_port("dn" + std::to_string(i), "downstream port", PortRole::pcie_downstream);
}

IOWALL_REGISTER_DEVICE(PcieSwitch, "pcie_switch", "PCIe switch with one upstream and N downstream ports");
IOWALL_PRESET("device", "pcie_switch", "pex89000", "Broadcom PEX89000 Gen5 switch, 144 lanes",
              "Broadcom product brief; latency as PEX88000 (figures.md)", R"({"latency": "105 ns", "downstream_ports": 8})");
IOWALL_PRESET("device", "pcie_switch", "pex88000", "Broadcom PEX88000 Gen4 switch", "Linley 2019 (figures.md)",
              R"({"latency": "105 ns", "downstream_ports": 8})");
IOWALL_PRESET("device", "pcie_switch", "pex9700", "Broadcom/PLX PEX9700 Gen3 switch (DGX-2 era)", "vendor (figures.md)",
              R"({"latency": "150 ns", "downstream_ports": 8})");

}  // namespace iowall
