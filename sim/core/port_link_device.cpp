#include <fmt/format.h>

#include "sim/core/device.hpp"
#include "sim/core/link.hpp"
#include "sim/core/route.hpp"

namespace iowall {

const char* port_role_name(PortRole r) {
  switch (r) {
    case PortRole::any: return "any";
    case PortRole::pcie_upstream: return "PCIe upstream";
    case PortRole::pcie_downstream: return "PCIe downstream";
    case PortRole::memory: return "memory";
    case PortRole::network: return "network";
  }
  return "?";
}

Port::Port(Device& owner, std::string name, std::string description, PortRole role)
    : owner_(owner), name_(std::move(name)), description_(std::move(description)), role_(role) {
  owner.add_port(this);
}

std::string Port::full_name() const { return owner_.name() + "." + name_; }

Link::Link(SimContext& ctx, Port& a, Port& b, LinkSpec spec)
    : Component(ctx, a.full_name() + "--" + b.full_name()), a_(a), b_(b), spec_(std::move(spec)) {
  for (int side = 0; side < 2; ++side) {
    Channel& ch = channels_[side];
    ch.link = this;
    ch.from_side = side;
    ch.bandwidth = spec_.bandwidth;
    ch.latency = spec_.latency;
    ch.wire = spec_.wire;
    ch.wire_read = spec_.wire_read;
    const std::string dir = side == 0 ? a.full_name() + ">" + b.full_name() : b.full_name() + ">" + a.full_name();
    ch.server = std::make_unique<Server>(*this, side == 0 ? "a>b" : "b>a");
    ch.server->set_carries(spec_.carries.empty() ? spec_.protocol + " transfer" : spec_.carries);
    // At TLP fidelity a hop holds no more TLPs than the receiver has credits for.
    if (ctx.fidelity() == Fidelity::tlp && spec_.credits > 0) ch.server->set_capacity(static_cast<std::size_t>(spec_.credits));
    ctx.stats().add(name() + "/" + (side == 0 ? "a>b" : "b>a") + "/payload_bytes", "B",
                    "payload bytes carried " + dir, ch.payload_bytes);
  }
  a.attach(this, 0);
  b.attach(this, 1);
}

Device::Device(const Params& params, SimContext& ctx)
    : Component(ctx, params.id()), params_(params) {
  const auto it = params_.json().find("model");
  model_ = it != params_.json().end() && it->is_string() ? it->get<std::string>() : "";
  if (auto* t = ctx.trace()) t->device(name());  // a track even for devices with no resource
}

Device::~Device() = default;

Port* Device::find_port(std::string_view name) const {
  for (Port* p : ports_)
    if (p->name() == name) return p;
  return nullptr;
}

Port& Device::make_port(std::string name, std::string description, PortRole role) {
  owned_ports_.push_back(std::make_unique<Port>(*this, std::move(name), std::move(description), role));
  return *owned_ports_.back();
}

bool Device::port_required(const Port& p) const {
  for (const auto& owned : owned_ports_)
    if (owned.get() == &p) return false;  // counted ports may stay free
  return true;
}

void Device::validate_connections() const {
  for (const Port* p : ports_)
    if (!p->link() && port_required(*p))
      throw InputError(params_.where().file, params_.where().pointer,
                       fmt::format("port {} ({}) is not connected to anything", p->full_name(), p->description()));
}

void Device::transit(const Port&, const Port&, bool, std::vector<Hop>&) {}

}  // namespace iowall
