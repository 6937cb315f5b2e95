// Flows of the packet fabric, end to end: a sender cuts its bytes (or its messages)
// into frames and queues them at its NIC, waiting while the NIC's queue is full; the
// receiver counts what arrives, puts it back in order, completes messages, and
// reports to the sender control (CNPs or ACKs). The pacing between frames is the
// sender control's (congestion_control.hpp).
#include <algorithm>

#include <fmt/format.h>

#include "models/net/congestion_control.hpp"
#include "models/net/fabric_core.hpp"
#include "sim/core/error.hpp"

namespace iowall::net {

namespace {
constexpr int kHostQueueFrames = 4;  // a NIC's send queue: flows wait when it is full
}  // namespace

Bytes FabricCore::next_frame(int fi) {
  Flow& f = flows[fi];
  f.pacing = false;
  if (!active(f) || f.waiting) return Bytes(0);
  Port& pt = ports[f.routes[0][0]];  // every route leaves through the sender's one port
  if (pt.out.queued() >= cfg.frame * kHostQueueFrames) {
    f.waiting = true;
    pt.blocked.push_back(fi);
    return Bytes(0);
  }
  Bytes bytes = f.remaining.is_negative() ? cfg.frame : std::min(f.remaining, cfg.frame);
  if (f.messages) bytes = std::min(bytes, f.msgs[f.sending].left);  // a frame holds one message's bytes
  return bytes;
}

void FabricCore::inject(int fi, Bytes bytes) {
  Flow& f = flows[fi];
  if (f.remaining.is_positive()) f.remaining -= bytes;
  Packet k;
  k.flow = fi;
  k.bytes = bytes;
  k.prio = f.prio;
  k.seq = f.next_seq++;
  k.path = f.choice.route(k.seq);
  k.sent = now();
  if (f.messages) {
    Message& m = f.msgs[f.sending];
    k.msg_first = m.left == m.size;
    m.left -= bytes;
    k.msg_last = m.left.is_zero();
    if (k.msg_last) ++f.sending;
  }
  enqueue(f.routes[0][0], pool.add(k));
}

void FabricCore::note_rate(int fi, Bandwidth r) {
  FlowStats& s = flows[fi].stats;
  s.final_rate = r;
  if (s.min_rate.is_zero() || r < s.min_rate) s.min_rate = r;
}

void FabricCore::deliver(int pkt) {
  const Packet k = pool[pkt];
  pool.free(pkt);
  Flow& f = flows[k.flow];
  if (f.stats.delivered.is_zero()) f.stats.first_byte = now();
  f.stats.delivered += k.bytes;
  f.stats.last_byte = now();
  f.log.add(now(), k.bytes);
  f.reorder.on_packet(k.seq, k.bytes, f.stats);
  if (f.messages) message_progress(f, k);
  control->on_delivered(k.flow, k);
}

// A message flow keeps one route, so its frames arrive in order: the front message is
// the one a frame belongs to.
void FabricCore::message_progress(Flow& f, const Packet& k) {
  if (k.msg_first && f.msgs.front().first) f.msgs.front().first();
  if (!k.msg_last) return;
  const Fabric::Delivered last = std::move(f.msgs.front().last);
  f.msgs.pop_front();
  --f.sending;
  if (last) last();
}

int Fabric::add_flow(const std::vector<int>& nodes, Bytes size, Time start, int priority) {
  return add_flow(std::vector<std::vector<int>>{nodes}, Multipath::ecmp, size, start, priority);
}

int Fabric::add_flow(const std::vector<std::vector<int>>& paths, Multipath mode, Bytes size, Time start,
                     int priority) {
  const int fi = build_flow(paths, mode, size, priority);
  SenderControl* control = core_->control.get();
  ctx().at(start, [control, fi] { control->start(fi); });
  return fi;
}

int Fabric::build_flow(const std::vector<std::vector<int>>& paths, Multipath mode, Bytes size, int priority) {
  if (paths.empty()) throw InputError(name(), "", "a flow needs a route");
  FabricCore::Flow f;
  f.remaining = size.is_positive() ? size : FabricCore::kUnlimited;
  f.prio = priority;
  for (const auto& nodes : paths) {
    if (nodes.size() < 2) throw InputError(name(), "", "a flow needs a source and a destination");
    if (nodes.front() != paths[0].front() || nodes.back() != paths[0].back())
      throw InputError(name(), "", "all routes of a flow join the same two hosts");
    if (core_->nodes[nodes.front()].is_switch || core_->nodes[nodes.back()].is_switch)
      throw InputError(name(), "", "flows start and end at hosts");
    std::vector<int> route;
    for (std::size_t i = 0; i + 1 < nodes.size(); ++i) route.push_back(port_between(nodes[i], nodes[i + 1]));
    f.routes.push_back(std::move(route));
  }
  // CNPs return on the idle reverse path of the first route: a minimum frame and the
  // cable per hop.
  for (int p : f.routes[0])
    f.cnp_delay += transfer_time(Bytes(64) + kWireOverhead, core_->ports[p].rate) + core_->ports[p].delay;
  const int fi = static_cast<int>(core_->flows.size());
  f.choice = RouteChoice::hashed(mode, f.routes.size(), ctx().seed(), fi);
  core_->flows.push_back(std::move(f));
  core_->control->add_flow(fi);
  return fi;
}

int Fabric::open_flow(const std::vector<int>& nodes, int priority) {
  const int fi = build_flow({nodes}, Multipath::ecmp, Bytes(0), priority);
  FabricCore::Flow& f = core_->flows[fi];
  f.messages = true;
  f.remaining = Bytes(0);  // idle until a message comes
  return fi;
}

void Fabric::send_message(int fi, Bytes bytes, Delivered first, Delivered last) {
  if (!bytes.is_positive()) throw InputError(name(), "", "a message needs at least one byte");
  FabricCore::Flow& f = core_->flows.at(fi);
  if (!f.messages) throw InputError(name(), "", "send_message on a flow not opened with open_flow");
  const bool idle = f.remaining.is_zero();
  f.msgs.push_back({bytes, bytes, std::move(first), std::move(last)});
  f.remaining += bytes;
  if (!idle) return;  // the flow is sending: it reaches this message in turn
  core_->control->resume(fi);
}

int Fabric::route_of(int f) const { return core_->flows.at(f).choice.ecmp; }

const FlowStats& Fabric::flow(int f) const {
  FlowStats& s = core_->flows.at(f).stats;
  s.final_rate = core_->control->final_rate(f, s.final_rate);
  return s;
}

Bytes Fabric::delivered_before(int f, Time t) const { return core_->flows.at(f).log.before(t); }

}  // namespace iowall::net
