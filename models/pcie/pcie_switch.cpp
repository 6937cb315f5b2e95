#include "models/pcie/pcie_switch.hpp"

#include <sstream>

#include "sim/config/registry.hpp"

namespace iowall {

PcieSwitch::PcieSwitch(const Params& p, SimContext& ctx) : Device(p, ctx) {
  for (i64 i = 0; i < downstream_ports; ++i)
    make_port("dn" + std::to_string(i), "downstream port", PortRole::pcie_downstream);
  if (!p.describing()) weight_list(ports().size());  // reports a malformed list now
}

std::vector<int> PcieSwitch::weight_list(std::size_t classes) const {
  std::vector<int> out(classes, 1);
  std::stringstream ss(weights);
  std::string item;
  std::size_t i = 0;
  while (std::getline(ss, item, ',')) {
    if (i >= classes) params().fail("weights", "more weights than classes (" + std::to_string(classes) + ")");
    try {
      const int w = std::stoi(item);
      if (w < 1) throw std::invalid_argument(item);
      out[i++] = w;
    } catch (const std::exception&) {
      params().fail("weights", "\"" + item + "\" is not a positive integer weight");
    }
  }
  return out;
}

void PcieSwitch::configure_egress(const Port&, Server& server) {
  const std::size_t classes = arbitrate_by == "tc" ? 8 : ports().size();
  server.set_arbitration(arbitration_from_name(arbitration), weight_list(classes));
}

int PcieSwitch::ingress_class(const Port& in) const {
  for (std::size_t i = 0; i < ports().size(); ++i)
    if (ports()[i] == &in) return static_cast<int>(i);
  return 0;
}

IOWALL_REGISTER_DEVICE(PcieSwitch, "pcie_switch", "PCIe switch with one upstream and N downstream ports");
IOWALL_PRESET("device", "pcie_switch", "pex89000", "Broadcom PEX89000 Gen5 switch, 144 lanes (PEX89144)",
              "Broadcom PEX89000 product brief (PEX89144: 144 lanes); latency as PEX88000 (figures.md)",
              R"({"latency": "105 ns", "downstream_ports": 8, "lanes": 144})");
IOWALL_PRESET("device", "pcie_switch", "pex89104", "Broadcom PEX89104 Gen5 switch, 104 lanes",
              "Broadcom PEX89000 product brief (PEX89104: 104 lanes); latency as PEX88000 (figures.md)",
              R"({"latency": "105 ns", "downstream_ports": 8, "lanes": 104})");
IOWALL_PRESET("device", "pcie_switch", "pex88000", "Broadcom PEX88000 Gen4 switch, 96 lanes (PEX88096)",
              "Linley 2019 (figures.md); Broadcom PEX88000 product brief (PEX88096: 96 lanes)",
              R"({"latency": "105 ns", "downstream_ports": 8, "lanes": 96})");
IOWALL_PRESET("device", "pcie_switch", "pex9700", "Broadcom/PLX PEX9700 Gen3 switch (DGX-2 era), 97 lanes (PEX9797)",
              "vendor (figures.md); Broadcom PEX9700 product brief (PEX9797: 97 lanes)",
              R"({"latency": "150 ns", "downstream_ports": 8, "lanes": 97})");

}  // namespace iowall
