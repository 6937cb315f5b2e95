#include "sim/run/data_path.hpp"

#include "models/host/cpu_socket.hpp"
#include "models/host/dram.hpp"

namespace iowall {
namespace {

template <typename T>
T& nearest(Topology& topo, const Device& from, const char* model, const std::string& file, const std::string& ptr) {
  T* best = nullptr;
  std::size_t best_hops = SIZE_MAX;
  for (Device* d : topo.devices_of(model)) {
    if (!topo.connected(from, *d)) continue;
    const std::size_t hops = topo.route(from, *d).devices.size();
    if (hops < best_hops) {
      best = static_cast<T*>(d);
      best_hops = hops;
    }
  }
  if (!best)
    throw InputError(file, ptr, std::string("the topology has no ") + model + " reachable from " + from.name());
  return *best;
}

}  // namespace

CpuSocket& PathEnv::cpu_near(const Device& device) {
  return nearest<CpuSocket>(topology, device, "cpu_socket", file, pointer);
}
Dram& PathEnv::dram_near(const Device& device) { return nearest<Dram>(topology, device, "dram", file, pointer); }

const Route& PathEnv::route(const Device& from, const Device& to, const std::vector<Hop>& prefix) {
  auto& slot = routes_[{&from, &to, prefix.empty() ? nullptr : prefix.front().server}];
  if (slot) return *slot;
  auto r = std::make_unique<Route>(topology.route(from, to));
  r->hops.insert(r->hops.begin(), prefix.begin(), prefix.end());
  if (to.model() == "dram") r->hops.push_back(static_cast<const Dram&>(to).access_hop());
  if (from.model() == "dram") r->hops.insert(r->hops.begin(), static_cast<const Dram&>(from).access_hop());
  slot = std::move(r);
  return *slot;
}

}  // namespace iowall
