// A PCIe switch: one upstream and N downstream ports. Bytes cross it with its
// cut-through latency; each output port arbitrates among the input ports feeding it
// (or among traffic classes) by a selectable policy, and every downstream port
// shares the upstream link.
#pragma once
#include <vector>

#include "sim/core/device.hpp"
#include "sim/core/server.hpp"

namespace iowall {

class PcieSwitch final : public Device {
public:
  PcieSwitch(const Params& p, SimContext& ctx);
  Time forwarding_latency() const override { return latency; }
  bool forwards() const override { return true; }
  void configure_egress(const Port& out, Server& server) override;
  int ingress_class(const Port& in) const override;
  bool arbitrates_by_tc() const override { return arbitrate_by == "tc"; }
  bool store_and_forward() const override { return forwarding == "store_and_forward"; }

  IOWALL_PARAM(Time, latency, "105 ns", "port-to-port cut-through latency (x16 to x16)",
               "Broadcom PEX88000 Gen4, Linley 2019 (figures.md)");
  IOWALL_PARAM_INT(downstream_ports, 8, 1, 128, "number of downstream ports dn0..dnN-1", "switch datasheet");
  IOWALL_PARAM_INT(lanes, 144, 1, 4096,
                   "PCIe lanes of the switch: the widths of the links on all its ports (upstream and downstream) "
                   "add up to at most this; loading a topology refuses more",
                   "generic: the largest Broadcom PEX89000 part, PEX89144 (144 lanes, product brief), so no "
                   "shipped topology is refused; presets give their part's count");
  IOWALL_PARAM_CHOICE(arbitration, "rr", (std::vector<std::string>{"fifo", "rr", "wrr", "wfq", "priority"}),
                      "output-port arbitration: fifo, round-robin, weighted round-robin, weighted fair queueing, "
                      "strict priority",
                      "PCIe base spec port arbitration (RR, WRR, time-based WRR) and VC arbitration");
  IOWALL_PARAM_CHOICE(arbitrate_by, "port", (std::vector<std::string>{"port", "tc"}),
                      "what the classes are: input ports, or the traffic class of the transfer", "PCIe base spec");
  IOWALL_PARAM_CHOICE(forwarding, "cut_through", (std::vector<std::string>{"cut_through", "store_and_forward"}),
                      "cut-through forwards a packet as its header arrives; store-and-forward after its last byte",
                      "PCIe switches are cut-through (PEX88000/89000 product briefs); store-and-forward for comparison");
  IOWALL_PARAM(std::string, weights, "",
               "comma-separated weights: per input port (up, dn0, dn1, ...) or per traffic class (TC0..TC7); "
               "missing ones are 1",
               "switch configuration");
  IOWALL_PORT(up, "upstream port, towards the root complex", PortRole::pcie_upstream);

private:
  std::vector<int> weight_list(std::size_t classes) const;
};

}  // namespace iowall
