#include "sim/run/data_path.hpp"

namespace iowall {
namespace {
// `d` as a store stacked over others, which sits on no link; null for any other device.
const BlockStorage* stacked_store(const Device& d) {
  if (!d.ports().empty()) return nullptr;
  // as_block_storage() reads nothing; it is not const only because it hands out the store.
  const BlockStorage* s = const_cast<Device&>(d).as_block_storage();
  return s && s->stacked() ? s : nullptr;
}
}  // namespace
Device& PathEnv::nearest(const Device& from, const char* model) {
  Device*& slot = nearest_[{&from, model, nullptr}];
  if (slot) return *slot;
  // A stacked store (md RAID0) is on no link: what is near its first member is near it.
  if (const BlockStorage* s = stacked_store(from)) {
    slot = &nearest(s->place(), model);
    return *slot;
  }
  std::size_t best_hops = SIZE_MAX;
  for (Device* d : topology.devices_of(model)) {
    if (!topology.connected(from, *d)) continue;
    const std::size_t hops = topology.route(from, *d).devices.size();
    if (hops < best_hops) {
      slot = d;
      best_hops = hops;
    }
  }
  if (!slot)
    throw InputError(file, pointer, std::string("the topology has no ") + model + " reachable from " + from.name());
  return *slot;
}

const Route& PathEnv::route(const Device& from, const Device& to, const std::vector<Hop>& prefix) {
  const PointerTriple key{&from, &to, prefix.empty() ? nullptr : prefix.front().server};
  // The product's top bits mix every bit of the pointers (its low bits only their low bits).
  RecentRoute& recent = recent_routes_[HashPointers{}(key) >> 59];
  if (recent.route && recent.key == key) return *recent.route;
  auto& slot = routes_[key];
  recent = {key, slot.get()};
  if (slot) return *slot;
  // A device on no link (a stacked store, sim/core/block_storage.hpp): the route is its
  // two ends and no hops; the store routes each piece from its member.
  if (stacked_store(from) || stacked_store(to)) {
    slot = std::make_unique<Route>(Route{{}, {from.name(), to.name()}});
    recent.route = slot.get();
    return *slot;
  }
  auto r = std::make_unique<Route>(topology.route(from, to));
  r->hops.insert(r->hops.begin(), prefix.begin(), prefix.end());
  Hop access;
  if (to.endpoint_hop(access)) r->hops.push_back(access);
  if (from.endpoint_hop(access)) r->hops.insert(r->hops.begin(), access);
  slot = std::move(r);
  recent.route = slot.get();
  return *slot;
}

}  // namespace iowall
