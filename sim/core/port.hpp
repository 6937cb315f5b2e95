// A named port of a device. Links join two ports; a port joins at most one link.
#pragma once
#include <string>

namespace iowall {

class Device;
class Link;

// What a port may connect to: the PCIe hierarchy checks use the roles.
enum class PortRole { any, pcie_upstream, pcie_downstream, memory, network };
const char* port_role_name(PortRole r);

class Port {
public:
  Port(Device& owner, std::string name, std::string description, PortRole role = PortRole::any);
  Port(const Port&) = delete;
  Port& operator=(const Port&) = delete;

  Device& owner() const { return owner_; }
  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  std::string full_name() const;
  PortRole role() const { return role_; }
  Link* link() const { return link_; }
  int side() const { return side_; }
  void attach(Link* link, int side) { link_ = link; side_ = side; }

private:
  Device& owner_;
  std::string name_, description_;
  PortRole role_;
  Link* link_ = nullptr;
  int side_ = 0;
};

}  // namespace iowall
