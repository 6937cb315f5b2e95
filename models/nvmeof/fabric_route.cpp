#include "models/nvmeof/fabric_route.hpp"

#include <fmt/format.h>

namespace iowall::nvmeof {

Route join_routes(const std::vector<Segment>& parts) {
  Route r;
  for (const Segment& s : parts) {
    const std::size_t first = r.hops.size();
    for (const Hop& h : s.route->hops) {
      r.hops.push_back(h);
      Hop& added = r.hops.back();
      if (s.dma_read && h.wire_read) added.wire = h.wire_read;  // completions carry the data
      added.wire_read = nullptr;
      added.memo_ = {};  // its remembered service times were for the other format
    }
    if (r.hops.size() > first) r.hops.back().latency += s.then;
    for (const std::string& d : s.route->devices)
      if (r.devices.empty() || r.devices.back() != d) r.devices.push_back(d);
  }
  return r;
}

Route across(PathEnv& env, const Device& from, const Nic& from_nic, const Route& wire, const Nic& to_nic,
             const Device& to) {
  return join_routes({{&env.route(from, from_nic), true, from_nic.pipeline_latency},
                      {&wire, false, to_nic.pipeline_latency},
                      {&env.route(to_nic, to)}});
}

namespace {
Link* network_link(const Nic& nic) { return nic.net.link(); }

// GPU i of a PCIe hierarchy (in declared order) uses its i-th NIC with a network link,
// wrapping when there are fewer NICs: rail i of a rail-optimized cluster.
Nic* paired_nic(PathEnv& env, const Device& near) {
  std::vector<Nic*> nics;
  for (Device* d : env.topology.devices_of("nic"))
    if (network_link(*static_cast<Nic*>(d)) && env.topology.connected(near, *d)) nics.push_back(static_cast<Nic*>(d));
  if (nics.empty()) return nullptr;
  std::size_t index = 0;
  for (Device* g : env.topology.devices_of("gpu")) {
    if (g == &near) return nics[index % nics.size()];
    if (env.topology.connected(near, *g)) ++index;
  }
  return nics.front();  // host memory: the hierarchy's first NIC
}
}  // namespace

Nic& choose_nic(PathEnv& env, const Device& near, const std::string& choice) {
  if (choice == "paired") {
    if (Nic* nic = paired_nic(env, near)) return *nic;
    throw InputError(env.file, env.pointer,
                     fmt::format("no route between {} and a storage target: no NIC on its PCIe hierarchy has a "
                                 "network link",
                                 near.name()));
  }
  if (choice != "nearest") {
    Device* d = env.topology.find(choice);
    if (!d || d->model() != "nic")
      throw InputError(env.file, env.pointer + "/nic", fmt::format("\"{}\" is not a nic of the topology", choice));
    if (!env.topology.connected(near, *d))
      throw InputError(env.file, env.pointer + "/nic",
                       fmt::format("no route between {} and {}: they are not on one PCIe hierarchy", near.name(), choice));
    return static_cast<Nic&>(*d);
  }
  Nic* best = nullptr;
  std::size_t hops = SIZE_MAX;
  for (Device* d : env.topology.devices_of("nic")) {
    auto* nic = static_cast<Nic*>(d);
    if (!network_link(*nic) || !env.topology.connected(near, *nic)) continue;
    const std::size_t h = env.topology.route(near, *nic).devices.size();
    if (h < hops) best = nic, hops = h;
  }
  if (!best)
    throw InputError(env.file, env.pointer,
                     fmt::format("no route between {} and a storage target: no NIC on its PCIe hierarchy has a "
                                 "network link",
                                 near.name()));
  return *best;
}

Nic& peer_nic(PathEnv& env, const Nic& nic) {
  Link* link = network_link(nic);
  Device* other = link ? &link->other(nic.net).owner() : nullptr;
  if (!other || other->model() != "nic")
    throw InputError(env.file, env.pointer,
                     fmt::format("no route between {} and a storage target: its network port is not linked to "
                                 "another NIC",
                                 nic.name()));
  return static_cast<Nic&>(*other);
}

Nic& target_nic(PathEnv& env, const Device& client, const Nic& client_nic, const Device& storage,
                const std::string& choice) {
  Link* link = network_link(client_nic);
  if (!link || !link->other(client_nic.net).owner().forwards()) return peer_nic(env, client_nic);
  if (choice != "nearest" && choice != "paired") {
    Device* d = env.topology.find(choice);
    if (!d || d->model() != "nic")
      throw InputError(env.file, env.pointer + "/target_nic", fmt::format("\"{}\" is not a nic of the topology", choice));
    if (!env.topology.connected(storage, *d) || !env.topology.connected(client_nic, *d))
      throw InputError(env.file, env.pointer + "/target_nic",
                       fmt::format("{} cannot serve {} from {}: it is not on {}'s PCIe hierarchy or not reachable "
                                   "from {}",
                                   choice, storage.name(), client_nic.name(), storage.name(), client_nic.name()));
    return static_cast<Nic&>(*d);
  }
  // The server's NICs that reach the store and the client, in declared order.
  std::vector<Nic*> serving;
  Nic* best = nullptr;
  std::size_t hops = SIZE_MAX;
  for (Device* d : env.topology.devices_of("nic")) {
    auto* nic = static_cast<Nic*>(d);
    if (nic == &client_nic || !network_link(*nic) || !env.topology.connected(storage, *nic) ||
        !env.topology.connected(client_nic, *nic))
      continue;
    serving.push_back(nic);
    const std::size_t h = env.topology.route(storage, *nic).devices.size();
    if (h < hops) best = nic, hops = h;
  }
  if (best && choice == "paired") {
    std::size_t index = 0;
    for (Device* d : env.topology.devices_of("nic")) {
      if (d == &client_nic) break;
      // Routes end at NICs: the NICs a client device reaches are its own node's.
      if (network_link(*static_cast<Nic*>(d)) && env.topology.connected(client, *d)) ++index;
    }
    return *serving[index % serving.size()];
  }
  if (!best)
    throw InputError(env.file, env.pointer,
                     fmt::format("no route between {} and {}: no NIC on {}'s PCIe hierarchy is reachable through {}",
                                 client_nic.name(), storage.name(), storage.name(),
                                 link->other(client_nic.net).owner().name()));
  return *best;
}

const Route& wire_route(PathEnv& env, const Nic& from, const Nic& to) { return env.topology.route(from, to); }

}  // namespace iowall::nvmeof
