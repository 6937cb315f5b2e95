// The sender controls by name, and the one without congestion control: every flow
// paced at its NIC's line rate, whatever the receivers see.
#include "models/net/congestion_control.hpp"

#include <stdexcept>

namespace iowall::net {

namespace {

class LineRate final : public PacedSender<LineRate> {
public:
  using PacedSender::PacedSender;
  void add_flow(int) override {}
  void start(int fi) override { send(fi); }
  void resume(int fi) override { resume_sending(fi); }
  void on_delivered(int, const Packet&) override {}
  bool admit(int, Bytes) { return true; }
  Bandwidth sent(int fi, Bytes) { return core_.ports[core_.flows[fi].routes[0][0]].rate; }
};

}  // namespace

std::unique_ptr<SenderControl> make_sender_control(const std::string& name, FabricCore& core) {
  struct Named {
    const char* name;
    std::unique_ptr<SenderControl> (*make)(FabricCore&);
  };
  static const Named controls[] = {
      {"dcqcn", make_dcqcn_sender},
      {"nscc", make_nscc_sender},
      {"line_rate", [](FabricCore& c) -> std::unique_ptr<SenderControl> { return std::make_unique<LineRate>(c); }},
  };
  for (const Named& n : controls)
    if (name == n.name) return n.make(core);
  throw std::logic_error("no sender control named \"" + name + "\"");
}

std::string sender_control_name(const FabricConfig& c) {
  if (c.nscc.enabled) return "nscc";
  return c.dcqcn.enabled ? "dcqcn" : "line_rate";
}

}  // namespace iowall::net
