// Links and switches of the packet fabric: a port sends its next frame when its wire
// is free (PFC frames first, then the highest unpaused priority with credits), the
// frame lands at the peer after the cable delay, and a switch admits it to its shared
// buffer, counts it against its ingress for PFC, marks ECN and queues it on the egress
// of its route. Sending and receiving flows: fabric_flows.cpp.
#include "models/net/fabric.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "models/net/congestion_control.hpp"
#include "models/net/fabric_core.hpp"
#include "sim/core/error.hpp"

namespace iowall::net {

FabricCore::FabricCore(Fabric& f, FabricConfig c)
    : self(f), cfg(std::move(c)), control(make_sender_control(sender_control_name(cfg), *this)) {}
FabricCore::~FabricCore() = default;

void FabricCore::queue_changed(int p) {
  if (p != watch || now() < watch_from) return;
  const Bytes q = ports[p].out.queued();
  // A time integral in byte-picoseconds, past the range of either unit: 128 bits.
  watch_integral += integral(watch_value.count(), now() - watch_last);
  watch_last = now();
  watch_value = q;
  self.watch_min_ = std::min(self.watch_min_, q);
  self.watch_max_ = std::max(self.watch_max_, q);
}

void FabricCore::enqueue(int p, int pkt) {
  Port& pt = ports[p];
  pt.out.push(pool, pkt);
  pt.stats.max_queue = std::max(pt.stats.max_queue, pt.out.queued());
  queue_changed(p);
  try_start(p);
}

void FabricCore::try_start(int p) {
  Port& pt = ports[p];
  if (pt.out.busy) return;
  int pkt = -1;
  if (!pt.out.control.empty()) {
    pkt = pt.out.control.front();
    pt.out.control.pop_front();
  } else {
    pkt = pt.out.pop(pool, pt.pause);
    if (pkt < 0) return;
    if (cfg.ecn.at_dequeue && nodes[pt.node].is_switch) {
      Packet& k = pool[pkt];
      if (mark_ecn(cfg.ecn, k, pt.out.bytes[k.prio], self.rng())) ++flows[k.flow].stats.marked;
    }
    queue_changed(p);
    wake_blocked(p);
  }
  pt.out.busy = true;
  const Time wire = pool[pkt].pause ? bit_time(cfg.pfc.pause_frame_bits, pt.rate)
                                    : transfer_time(pool[pkt].bytes + kWireOverhead, pt.rate);
  FabricCore* core = this;
  ctx().in(wire, [core, p, pkt] { core->finish_tx(p, pkt); });
}

void FabricCore::finish_tx(int p, int pkt) {
  Port& pt = ports[p];
  pt.out.busy = false;
  const Packet& k = pool[pkt];
  if (!k.pause && nodes[pt.node].is_switch) release(pt.node, k);
  FabricCore* core = this;
  ctx().in(pt.delay, [core, p, pkt] { core->arrive(core->ports[p].peer, pkt); });
  try_start(p);
}

// The switch forgets a departed frame: shared buffer and ingress counters, credits, XON.
void FabricCore::release(int node, const Packet& k) {
  const int ingress = k.ingress, prio = k.prio;
  const Bytes bytes = k.bytes;
  nodes[node].buffer.used -= bytes;
  Port& in = ports[ingress];
  const bool xon = in.in.release(prio, bytes, cfg.pfc);
  if (cfg.pfc.credit) {
    // The freed room goes back to the upstream sender in a flow-control packet.
    FabricCore* core = this;
    const int up = in.peer;
    ctx().in(in.delay, [core, up, prio, bytes] {
      core->ports[up].out.credits[prio] += bytes;
      core->try_start(up);
    });
  }
  if (xon) send_pause(ingress, prio, false);
}

void FabricCore::send_pause(int p, int prio, bool on) {
  Packet k;
  k.pause = true;
  k.pause_on = on;
  k.prio = prio;
  k.bytes = Bytes(0);
  ports[p].out.control.push_back(pool.add(k));
  if (on) ++ports[p].stats.pauses_sent;
  try_start(p);
}

void FabricCore::arrive(int p, int pkt) {
  Port& pt = ports[p];
  if (pool[pkt].pause) {
    // The upstream MAC and PHY pass the frame up, then the sender reacts.
    const Time react = bit_time(cfg.pfc.interface_bits + cfg.pfc.response_bits, pt.rate);
    const int prio = pool[pkt].prio;
    const bool on = pool[pkt].pause_on;
    pool.free(pkt);
    if (on) ++pt.stats.pauses_received;
    FabricCore* core = this;
    ctx().in(react, [core, p, prio, on] { core->set_paused(p, prio, on); });
    return;
  }
  Node& n = nodes[pt.node];
  if (!n.is_switch) return deliver(pkt);
  const int prio = pool[pkt].prio;
  const Bytes bytes = pool[pkt].bytes;
  pt.in.arrived(prio, bytes, pt.stats);
  if (!n.buffer.admits(bytes, cfg.buffer)) {
    // Lossy priority, or PAUSE came too late: the frame is lost.
    ++self.drops_;
    pool.free(pkt);
    return;
  }
  n.buffer.used += bytes;
  pool[pkt].ingress = p;
  if (pt.in.hold(prio, bytes, cfg.pfc, pt.stats)) send_pause(p, prio, true);  // may grow the pool
  Packet& k = pool[pkt];
  ++k.hop;
  const int out = flows[k.flow].routes[k.path][k.hop];
  if (!cfg.ecn.at_dequeue && mark_ecn(cfg.ecn, k, ports[out].out.bytes[k.prio], self.rng()))
    ++flows[k.flow].stats.marked;
  enqueue(out, pkt);
}

void FabricCore::set_paused(int p, int prio, bool on) {
  if (!ports[p].pause.set(prio, on, now(), ports[p].stats)) return;
  if (!on) try_start(p);
}

// Room in a NIC's queue: the flows that waited for it send again.
void FabricCore::wake_blocked(int p) {
  Port& pt = ports[p];
  if (nodes[pt.node].is_switch || pt.blocked.empty()) return;
  std::vector<int> ready;
  ready.swap(pt.blocked);
  for (int fi : ready) {
    flows[fi].waiting = false;
    control->wake(fi);
  }
}

Fabric::Fabric(SimContext& ctx, std::string name, FabricConfig cfg)
    : Component(ctx, std::move(name)), core_(std::make_unique<FabricCore>(*this, std::move(cfg))) {
  if (!core_->cfg.frame.is_positive() || !core_->cfg.buffer.is_positive())
    throw InputError(this->name(), "", "frame and buffer sizes must be positive");
}
Fabric::~Fabric() = default;

int Fabric::add_host(const std::string& name) {
  core_->nodes.push_back({name, false, {}, {}});
  return static_cast<int>(core_->nodes.size()) - 1;
}
int Fabric::add_switch(const std::string& name) {
  core_->nodes.push_back({name, true, {}, {}});
  return static_cast<int>(core_->nodes.size()) - 1;
}

int Fabric::connect(int a, int b, Bandwidth rate, double cable_m) {
  auto& ps = core_->ports;
  const int pa = static_cast<int>(ps.size());
  const Time delay = scale(core_->cfg.pfc.cable_per_meter, cable_m);
  ps.emplace_back();
  ps.emplace_back();
  ps[pa].node = a;
  ps[pa].peer = pa + 1;
  ps[pa + 1].node = b;
  ps[pa + 1].peer = pa;
  for (int p : {pa, pa + 1}) {
    ps[p].rate = rate;
    ps[p].delay = delay;
    // Credits bound what a port may send into a switch; hosts take all they receive.
    const bool to_switch = core_->nodes[ps[ps[p].peer].node].is_switch;
    ps[p].out.credits.fill(core_->cfg.pfc.credit && to_switch ? core_->cfg.pfc.credits : Bytes::max() / 2);
  }
  core_->nodes[a].ports.push_back(pa);
  core_->nodes[b].ports.push_back(pa + 1);
  return pa;
}

int Fabric::port_between(int a, int b) const {
  // Search the node with fewer ports (a switch of an N-host incast has N+1): finding N
  // routes stays linear in N instead of quadratic.
  const auto& pa = core_->nodes[a].ports;
  const auto& pb = core_->nodes[b].ports;
  if (pb.size() < pa.size()) {
    for (int p : pb)
      if (core_->ports[core_->ports[p].peer].node == a) return core_->ports[p].peer;
  } else {
    for (int p : pa)
      if (core_->ports[core_->ports[p].peer].node == b) return p;
  }
  throw InputError(name(), "", fmt::format("no link between {} and {}", core_->nodes[a].name, core_->nodes[b].name));
}

void Fabric::watch_queue(int port, Time from) {
  core_->watch = port;
  core_->watch_from = core_->watch_last = from;
  watch_min_ = Bytes::max();
  watch_max_ = Bytes(0);
}

double Fabric::mean_watched_queue(Time until) const {
  // The byte-picosecond integral (as in queue_changed) over the span.
  const i128 total = core_->watch_integral + integral(core_->watch_value.count(), until - core_->watch_last);
  const Time span = until - core_->watch_from;
  return span.is_positive() ? static_cast<double>(total) / span.ps_value() : 0;
}

const PortStats& Fabric::port(int p) const { return core_->ports.at(p).stats; }

std::string Fabric::pending_work() const {
  int left = 0;
  for (const auto& f : core_->flows) left += f.remaining.is_positive();
  return left ? fmt::format("{} flows unfinished", left) : std::string();
}

}  // namespace iowall::net
