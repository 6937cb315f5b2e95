#include "models/cxl/cxl_fabric.hpp"

#include <fmt/format.h>

namespace iowall::cxl {
namespace {

Message message(MessageKind kind, const MessageBits& b) {
  switch (kind) {
    case MessageKind::req: return read_request(b);
    case MessageKind::rwd: return write_request(b);
    case MessageKind::drs: return read_data(b);
    case MessageKind::ndr: return write_completion(b);
    case MessageKind::bisnp: return {b.bisnp, 0};
    case MessageKind::birsp: return {b.birsp, 0};
  }
  return {};
}

}  // namespace

CxlFabric::CxlFabric(Topology& topology, const Json& doc, const std::string& file) : topology_(topology) {
  const Json& links = doc.at("links");
  for (std::size_t i = 0; i < links.size() && i < topology.links().size(); ++i) {
    if (!links[i].contains("cxl")) continue;
    Link& link = *topology.links()[i];
    const LinkConfig c = read_link(Params(links[i]["cxl"], {file, fmt::format("/links/{}/cxl", i)}));
    for (int side = 0; side < 2; ++side) {
      const Port& from = side == 0 ? link.a() : link.b();
      channels_.push_back(std::make_unique<FlitChannel>(from.owner(), "flits>" + link.other(from).full_name(),
                                                        c.layout(), c.bandwidth()));
      by_server_[link.direction(side).server.get()] = {channels_.back().get(), c.bits};
    }
  }
}

CxlFabric::~CxlFabric() = default;

const CxlFabric::Legs& CxlFabric::legs(const Device& from, const Device& to) {
  auto [it, fresh] = legs_.try_emplace({&from, &to});
  if (!fresh) return it->second;
  for (const Hop& h : topology_.route(from, to).hops) {
    const auto found = by_server_.find(h.server);
    if (found == by_server_.end())
      throw InputError(topology_.file(), "", fmt::format("the route {} -> {} crosses {}, which is not a cxl link",
                                                         from.name(), to.name(), h.label));
    it->second.push_back({found->second.first, h.latency, found->second.second});
  }
  return it->second;
}

const FlitChannel* CxlFabric::channel_from(const Device& device) const {
  for (const auto& link : topology_.links())
    for (int side = 0; side < 2; ++side) {
      const Port& from = side == 0 ? link->a() : link->b();
      const auto found = by_server_.find(link->direction(side).server.get());
      if (&from.owner() == &device && found != by_server_.end()) return found->second.first;
    }
  return nullptr;
}

void CxlFabric::send(const Legs& legs, MessageKind kind, Done done, std::size_t first, std::size_t end) {
  hop(transits_.acquire({&legs, first, std::min(end, legs.size()), kind, done}));
}

void CxlFabric::hop(std::uint32_t t) {
  Transit& tr = transits_[t];
  if (tr.leg == tr.end) {
    const Done done = tr.done;
    transits_.release(t);
    done();
    return;
  }
  const Leg& leg = (*tr.legs)[tr.leg++];
  leg.channel->send(message(tr.kind, leg.bits), leg.after, [this, t] { hop(t); });
}

void CxlFabric::load(CxlHost& host, CxlType3& device, CxlHost* holder, Done done) {
  const std::uint32_t id = txns_.acquire({&host, &device, holder, done, false, holder ? 2 : 1, Time(0)});
  host.ctx().in(host.fabric_latency / 2, [this, id] { start(id); });
}

void CxlFabric::store(CxlHost& host, CxlType3& device, Done done) {
  const std::uint32_t id = txns_.acquire({&host, &device, nullptr, done, true, 1, Time(0)});
  host.ctx().in(host.fabric_latency / 2, [this, id] { start(id); });
}

void CxlFabric::start(std::uint32_t id) {
  const Legs& l = legs(*txns_[id].host, *txns_[id].device);
  send(l, request_kind(id), [this, id] { at_last_port(id); }, 0, l.size() - 1);
}

void CxlFabric::at_last_port(std::uint32_t id) {
  Txn& x = txns_[id];
  x.asked = x.host->now();
  x.device->acquire([this, id] { granted(id); });
}

void CxlFabric::granted(std::uint32_t id) {
  const Txn& x = txns_[id];
  const Legs& l = legs(*x.host, *x.device);
  auto go = [this, id] {
    const Legs& l = legs(*txns_[id].host, *txns_[id].device);
    send(l, request_kind(id), [this, id] { arrived(id); }, l.size() - 1);
  };
  // A slot that was free when asked for is a credit the port already held; one freed
  // later travels back over the link first.
  if (x.host->now() == x.asked)
    go();
  else
    x.host->ctx().in(l.back().after, go);
}

void CxlFabric::arrived(std::uint32_t id) {
  const Txn& x = txns_[id];
  x.device->access([this, id] { part_done(id); });
  if (!x.holder) return;
  // Back-invalidate: the device snoops the caching host before it may answer.
  send(legs(*x.device, *x.holder), MessageKind::bisnp, [this, id] {
    CxlHost& holder = *txns_[id].holder;
    holder.ctx().in(holder.snoop_latency, [this, id] {
      const Txn& t = txns_[id];
      send(legs(*t.holder, *t.device), MessageKind::birsp, [this, id] { part_done(id); });
    });
  });
}

void CxlFabric::part_done(std::uint32_t id) {
  Txn& x = txns_[id];
  if (--x.parts_left > 0) return;
  send(legs(*x.device, *x.host), x.write ? MessageKind::ndr : MessageKind::drs, [this, id] {
    CxlHost& host = *txns_[id].host;
    host.ctx().in(host.fabric_latency - host.fabric_latency / 2, [this, id] { finish(id); });
  });
}

void CxlFabric::finish(std::uint32_t id) {
  const Done done = txns_[id].done;
  txns_.release(id);
  done();
}

}  // namespace iowall::cxl
