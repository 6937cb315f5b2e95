// A device of the topology: a component with documented parameters and named ports.
// Models derive from it and declare what they take next to the member it fills:
//   IOWALL_PARAM(Time, read_latency, "60 us", "median 4 KiB read latency", "datasheet");
//   IOWALL_PORT(up, "PCIe upstream port", PortRole::pcie_upstream);
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/params.hpp"
#include "sim/core/component.hpp"
#include "sim/core/port.hpp"

namespace iowall {

class BlockStorage;
class Server;
struct Hop;

class Device : public Component {
public:
  Device(const Params& params, SimContext& ctx);
  ~Device() override;

  const Params& params() const { return params_; }
  const std::string& model() const { return model_; }
  Port* find_port(std::string_view name) const;
  const std::vector<Port*>& ports() const { return ports_; }
  void add_port(Port* p) { ports_.push_back(p); }
  // Ports created at run time (a switch's downstream ports, counted by a parameter).
  Port& make_port(std::string name, std::string description, PortRole role);

  // Called once all links are joined. Throws InputError for a wrong configuration
  // (a required port left unconnected, say).
  virtual void validate_connections() const;
  // Ports that must be connected (default: all fixed ports).
  virtual bool port_required(const Port& p) const;
  // Resources bytes use when they cross this device from `in` to `out` (a root
  // complex's peer-to-peer bridge, a switch's forwarding latency). `to_memory`: one end
  // of the route is host memory (a DMA to or from DRAM, not between two devices).
  virtual void transit(const Port& in, const Port& out, bool to_memory, std::vector<Hop>& hops);
  // Called for the server of every link channel leaving one of this device's ports
  // (a switch sets its output-port arbitration here).
  virtual void configure_egress(const Port& out, Server& server) {}
  // The arbitration class of bytes entering through `in` (a switch: the port's index).
  virtual int ingress_class(const Port& in) const { return 0; }
  virtual bool arbitrates_by_tc() const { return false; }
  // Whether routes may pass through this device (switches and root complexes do;
  // endpoints such as GPUs, SSDs, NICs and memory only start or end them).
  virtual bool forwards() const { return false; }
  // Whether bytes leave only after a whole packet (chunk) has arrived.
  virtual bool store_and_forward() const { return false; }
  // Latency of forwarding through this device (switch cut-through, say).
  virtual Time forwarding_latency() const { return Time(0); }
  // The resource every route that starts or ends at this device crosses (host memory's
  // bandwidth): true with `hop` filled in, false for devices without one.
  virtual bool endpoint_hop(Hop& hop) const { return false; }
  // This device as block storage (sim/core/block_storage.hpp), or null when it stores
  // nothing. Asked once when a workload or path picks its drives, not per I/O.
  virtual BlockStorage* as_block_storage() { return nullptr; }
  // Called once every device is built and linked, for a device that names others by id
  // (md_raid0's members): `find` gives the device with an id, or null. Throws InputError.
  virtual void find_devices(const std::function<Device*(const std::string&)>& find) {}

  // Typed parameter reads used by IOWALL_PARAM.
  template <typename T>
  T param_value(const std::string& name, const char* def, const char* desc, const char* src) const;

private:
  Params params_;
  std::string model_;
  std::vector<Port*> ports_;
  std::vector<std::unique_ptr<Port>> owned_ports_;
};

template <typename T>
T Device::param_value(const std::string& n, const char* d, const char* ds, const char* s) const {
  return read_param<T>(params_, n, d, ds, s);
}

#define IOWALL_PORT(name, desc, role) ::iowall::Port name{*this, #name, desc, role}

}  // namespace iowall
