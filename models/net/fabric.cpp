#include "models/net/fabric.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace iowall::net {

namespace {
constexpr int kHostQueueFrames = 4;  // a NIC's send queue: flows wait when it is full
}

struct Fabric::Impl {
  struct Packet {
    int flow = -1;
    i64 bytes = 0;
    int hop = 0;      // index into the packet's route of the egress port it is queued on
    int path = 0;     // which of the flow's routes
    i64 seq = 0;      // packet number within the flow
    int ingress = -1; // switch port it entered through
    int prio = 0;
    bool ecn = false;
    bool pause = false, pause_on = false;  // a PAUSE (on) or resume (off) frame
    bool msg_first = false, msg_last = false;  // a message flow's first / last frame of a message
    Time sent;        // when the sender injected it (NSCC's round trip)
  };
  struct Port {
    int node = -1, peer = -1;
    Bandwidth rate;
    Time delay;
    std::array<std::deque<int>, kPriorities> q;
    std::array<i64, kPriorities> qbytes{};
    std::deque<int> ctl;
    bool busy = false;
    std::array<bool, kPriorities> paused{};
    std::array<i64, kPriorities> credits{};  // room the next hop has advertised
    int paused_prios = 0;
    Time paused_since;
    // Ingress side: bytes that entered here and are still held by this switch.
    std::array<i64, kPriorities> held{};
    std::array<bool, kPriorities> xoff_sent{};
    std::array<i64, kPriorities> skid{};
    std::vector<int> blocked;  // host: flows waiting for room
    PortStats stats;
  };
  struct Node {
    std::string name;
    bool is_switch = false;
    std::vector<int> ports;
    i64 used = 0;  // switch: shared buffer in use
  };
  struct Message {
    i64 size = 0, left = 0;  // bytes, and bytes not yet sent
    Delivered first, last;
  };
  struct Flow {
    std::vector<std::vector<int>> routes;  // egress port at each node from the source on, per route
    Multipath mode = Multipath::ecmp;
    int ecmp = 0;            // the route ECMP hashed the flow onto
    i64 next_seq = 0, expected = 0;
    std::map<i64, i64> early;  // receiver: packets past a gap (seq -> bytes)
    i64 early_bytes = 0;
    i64 remaining = 0;       // bytes left to send; -1: unlimited
    int prio = 3;
    bool waiting = false;
    DcqcnRate rate;
    NsccWindow window;
    i64 inflight = 0;             // NSCC: bytes sent and not yet acknowledged
    bool pacing = false;          // a paced send is scheduled
    bool window_full = false;     // NSCC: waiting for an ACK to open the window
    Time last_cnp = Time(-1);
    Time cnp_delay;
    EventId increase;
    std::vector<i64> bins;
    FlowStats stats;
    bool messages = false;        // carries messages (open_flow), not one stream of bytes
    std::deque<Message> msgs;     // sent or sending, not yet delivered; in order
    std::size_t sending = 0;      // index in msgs of the one being sent
    bool increase_on = false, alpha_on = false;  // DCQCN timers scheduled
    Time increase_off, alpha_off;                 // ...or when each last fired
  };

  Fabric& self;
  FabricConfig cfg;
  std::vector<Node> nodes;
  std::vector<Port> ports;
  std::vector<Flow> flows;
  std::vector<Packet> pool;
  std::vector<int> free_packets;
  int watch = -1;
  Time watch_from, watch_last;
  i64 watch_value = 0;
  i128 watch_integral = 0;

  Impl(Fabric& f, FabricConfig c) : self(f), cfg(std::move(c)) {}
  SimContext& ctx() { return self.ctx(); }

  int new_packet(const Packet& p) {
    if (free_packets.empty()) {
      pool.push_back(p);
      return static_cast<int>(pool.size()) - 1;
    }
    const int i = free_packets.back();
    free_packets.pop_back();
    pool[i] = p;
    return i;
  }
  void free_packet(int i) { free_packets.push_back(i); }

  void queue_changed(int p) {
    if (p != watch || ctx().now() < watch_from) return;
    const Port& pt = ports[p];
    i64 q = 0;
    for (i64 b : pt.qbytes) q += b;
    watch_integral += static_cast<i128>(watch_value) * (ctx().now() - watch_last).ps;
    watch_last = ctx().now();
    watch_value = q;
    self.watch_min_ = std::min(self.watch_min_, Bytes(q));
    self.watch_max_ = std::max(self.watch_max_, Bytes(q));
  }

  void enqueue(int p, int pkt) {
    Port& pt = ports[p];
    const Packet& k = pool[pkt];
    pt.q[k.prio].push_back(pkt);
    pt.qbytes[k.prio] += k.bytes;
    i64 q = 0;
    for (i64 b : pt.qbytes) q += b;
    pt.stats.max_queue = std::max(pt.stats.max_queue, Bytes(q));
    queue_changed(p);
    try_start(p);
  }

  // Starts the next frame: PAUSE frames first, then the highest unpaused priority.
  void try_start(int p) {
    Port& pt = ports[p];
    if (pt.busy) return;
    int pkt = -1;
    if (!pt.ctl.empty()) {
      pkt = pt.ctl.front();
      pt.ctl.pop_front();
    } else {
      for (int pr = kPriorities - 1; pr >= 0 && pkt < 0; --pr)
        if (!pt.paused[pr] && !pt.q[pr].empty() && pt.credits[pr] >= pool[pt.q[pr].front()].bytes) {
          pkt = pt.q[pr].front();
          pt.q[pr].pop_front();
          pt.qbytes[pr] -= pool[pkt].bytes;
          pt.credits[pr] -= pool[pkt].bytes;
        }
      if (pkt < 0) return;
      if (cfg.ecn.at_dequeue && nodes[pt.node].is_switch) mark(p, pkt);
      queue_changed(p);
      wake_blocked(p);
    }
    pt.busy = true;
    const Time wire = pool[pkt].pause ? bit_times(cfg.pfc.pause_frame_bits, pt.rate)
                                      : transfer_time(Bytes(pool[pkt].bytes + kWireOverhead), pt.rate);
    Impl* self_ = this;
    ctx().in(wire, [self_, p, pkt] { self_->finish_tx(p, pkt); });
  }

  void finish_tx(int p, int pkt) {
    Port& pt = ports[p];
    pt.busy = false;
    const Packet& k = pool[pkt];
    if (!k.pause && nodes[pt.node].is_switch) release(pt.node, k);
    Impl* self_ = this;
    ctx().in(pt.delay, [self_, p, pkt] { self_->arrive(self_->ports[p].peer, pkt); });
    try_start(p);
  }

  // The switch forgets a departed packet: shared buffer and ingress counters, XON.
  void release(int node, const Packet& k) {
    nodes[node].used -= k.bytes;
    Port& in = ports[k.ingress];
    in.held[k.prio] -= k.bytes;
    if (cfg.pfc.credit) {
      // The freed room goes back to the upstream sender in a flow-control packet.
      Impl* self_ = this;
      const int up = in.peer, prio = k.prio;
      const i64 bytes = k.bytes;
      ctx().in(in.delay, [self_, up, prio, bytes] {
        self_->ports[up].credits[prio] += bytes;
        self_->try_start(up);
      });
    }
    if (in.xoff_sent[k.prio] && in.held[k.prio] <= cfg.pfc.xon.n) {
      in.xoff_sent[k.prio] = false;
      send_pause(k.ingress, k.prio, false);
    }
  }

  // ECN: marks with a probability that ramps from kmin to kmax of the egress queue.
  void mark(int p, int pkt) {
    Packet& k = pool[pkt];
    if (!k.ecn && self.rng().uniform() < cfg.ecn.probability(Bytes(ports[p].qbytes[k.prio]))) {
      k.ecn = true;
      ++flows[k.flow].stats.marked;
    }
  }

  void send_pause(int p, int prio, bool on) {
    Packet k;
    k.pause = true;
    k.pause_on = on;
    k.prio = prio;
    k.bytes = 0;
    ports[p].ctl.push_back(new_packet(k));
    if (on) ++ports[p].stats.pauses_sent;
    try_start(p);
  }

  void arrive(int p, int pkt) {
    Packet& k = pool[pkt];
    Port& pt = ports[p];
    if (k.pause) {
      // The upstream MAC and PHY pass the frame up, then the sender reacts.
      const Time react = bit_times(cfg.pfc.interface_bits + cfg.pfc.response_bits, pt.rate);
      const int prio = k.prio;
      const bool on = k.pause_on;
      free_packet(pkt);
      if (on) ++pt.stats.pauses_received;
      Impl* self_ = this;
      ctx().in(react, [self_, p, prio, on] { self_->set_paused(p, prio, on); });
      return;
    }
    Node& n = nodes[pt.node];
    if (!n.is_switch) return deliver(pkt);
    if (pt.xoff_sent[k.prio]) {
      pt.skid[k.prio] += k.bytes + kWireOverhead;  // on-wire bytes, as the headroom counts them
      pt.stats.max_skid = std::max(pt.stats.max_skid, Bytes(pt.skid[k.prio]));
    }
    const bool lossless = cfg.pfc.enabled;
    if (n.used + k.bytes > cfg.buffer.n) {
      // Lossy priority, or PAUSE came too late: the frame is lost.
      ++self.drops_;
      free_packet(pkt);
      return;
    }
    n.used += k.bytes;
    pt.held[k.prio] += k.bytes;
    pt.stats.max_held = std::max(pt.stats.max_held, Bytes(pt.held[k.prio]));
    k.ingress = p;
    if (lossless && !pt.xoff_sent[k.prio] && pt.held[k.prio] >= cfg.pfc.xoff.n) {
      pt.xoff_sent[k.prio] = true;
      pt.skid[k.prio] = 0;
      send_pause(p, k.prio, true);
    }
    Flow& f = flows[k.flow];
    ++k.hop;
    const int out = f.routes[k.path][k.hop];
    if (!cfg.ecn.at_dequeue) mark(out, pkt);
    enqueue(out, pkt);
  }

  void set_paused(int p, int prio, bool on) {
    Port& pt = ports[p];
    if (pt.paused[prio] == on) return;
    pt.paused[prio] = on;
    if (on && pt.paused_prios++ == 0) pt.paused_since = ctx().now();
    if (!on && --pt.paused_prios == 0) pt.stats.paused_time += ctx().now() - pt.paused_since;
    if (!on) try_start(p);
  }

  void deliver(int pkt) {
    const Packet k = pool[pkt];
    free_packet(pkt);
    Flow& f = flows[k.flow];
    const Time now = ctx().now();
    if (f.stats.delivered.n == 0) f.stats.first_byte = now;
    f.stats.delivered += Bytes(k.bytes);
    f.stats.last_byte = now;
    const auto bin = static_cast<std::size_t>(now.ps / Fabric::kBin.ps);
    if (f.bins.size() <= bin) f.bins.resize(bin + 1, 0);
    f.bins[bin] += k.bytes;
    reorder(f, k);
    if (f.messages) message_progress(f, k);
    if (cfg.nscc.enabled) {
      // Every packet is acknowledged over the idle reverse path, echoing its ECN mark.
      // (flow, bytes and mark packed in one word: an event holds 24 bytes.)
      Impl* self_ = this;
      const std::uint64_t ack = static_cast<std::uint64_t>(k.flow) << 32 | static_cast<std::uint64_t>(k.bytes) << 1 |
                                (k.ecn ? 1U : 0U);
      const Time sent = k.sent;
      ctx().in(f.cnp_delay, [self_, ack, sent] {
        self_->on_ack(static_cast<int>(ack >> 32), static_cast<i64>((ack & 0xFFFFFFFFU) >> 1), (ack & 1U) != 0, sent);
      });
      return;
    }
    // Receiver (notification point): one CNP per flow per interval for marked packets.
    if (k.ecn && cfg.dcqcn.enabled && (f.last_cnp.ps < 0 || now - f.last_cnp >= cfg.dcqcn.cnp_interval)) {
      f.last_cnp = now;
      ++f.stats.cnps;
      Impl* self_ = this;
      const int fi = k.flow;
      ctx().in(f.cnp_delay, [self_, fi] { self_->on_cnp(fi); });
    }
  }

  // A message flow keeps one route, so its frames arrive in order: the front message
  // is the one a frame belongs to.
  static void message_progress(Flow& f, const Packet& k) {
    if (k.msg_first && f.msgs.front().first) f.msgs.front().first();
    if (!k.msg_last) return;
    const Delivered last = std::move(f.msgs.front().last);
    f.msgs.pop_front();
    --f.sending;
    if (last) last();
  }

  // The receiver places packets in order: one past a gap waits until the gap fills.
  static void reorder(Flow& f, const Packet& k) {
    if (k.seq != f.expected) {
      ++f.stats.out_of_order;
      f.early[k.seq] = k.bytes;
      f.early_bytes += k.bytes;
      f.stats.max_reorder = std::max(f.stats.max_reorder, Bytes(f.early_bytes));
      return;
    }
    ++f.expected;
    for (auto it = f.early.begin(); it != f.early.end() && it->first == f.expected; it = f.early.erase(it)) {
      f.early_bytes -= it->second;
      ++f.expected;
    }
  }

  bool active(const Flow& f) const { return f.remaining != 0; }

  void on_ack(int fi, i64 bytes, bool marked, Time sent) {
    Flow& f = flows[fi];
    f.inflight -= bytes;
    if (marked) ++f.stats.cnps;  // echoed marks, counted where DCQCN counts CNPs
    f.window.on_ack(Bytes(bytes), marked, ctx().now() - sent, ctx().now());
    if (f.window_full && !f.pacing) {
      f.window_full = false;
      send(fi);
    }
  }

  void on_cnp(int fi) {
    Flow& f = flows[fi];
    if (!active(f)) return;
    f.rate.on_cnp();
    ctx().queue().cancel(f.increase);  // a CNP restarts the increase timer
    schedule_increase(fi);
  }
  void schedule_increase(int fi) {
    Impl* self_ = this;
    flows[fi].increase_on = true;
    flows[fi].increase = ctx().in(cfg.dcqcn.increase_timer, [self_, fi] {
      Flow& f = self_->flows[fi];
      if (!self_->active(f)) {
        f.increase_on = false;
        f.increase_off = self_->ctx().now();
        return;
      }
      f.rate.on_increase_timer();
      self_->schedule_increase(fi);
    });
  }
  void schedule_alpha(int fi) {
    Impl* self_ = this;
    flows[fi].alpha_on = true;
    ctx().in(cfg.dcqcn.alpha_timer, [self_, fi] {
      Flow& f = self_->flows[fi];
      if (!self_->active(f)) {
        f.alpha_on = false;
        f.alpha_off = self_->ctx().now();
        return;
      }
      f.rate.on_alpha_timer();
      self_->schedule_alpha(fi);
    });
  }

  // A NIC's DCQCN timers keep running while its queue pair is idle; rather than an
  // event per period, a flow that starts sending again takes the periods it missed
  // (no CNP and no bytes came meanwhile, so only the timer stages move).
  void restart_timers(int fi) {
    Flow& f = flows[fi];
    const Time now = ctx().now();
    if (!f.increase_on) {
      // Past this many AI steps any cut has recovered to line rate.
      const i64 missed = std::min<i64>((now - f.increase_off).ps / cfg.dcqcn.increase_timer.ps, 1'000'000);
      for (i64 i = 0; i < missed; ++i) {
        const Bandwidth before = f.rate.rate();
        f.rate.on_increase_timer();
        if (f.rate.rate() == before) break;  // at line rate (or as near as halving gets)
      }
      schedule_increase(fi);
    }
    if (!f.alpha_on) {
      // Alpha is below 1e-9 of itself after this many periods (g = 1/256): nothing left to decay.
      const i64 missed = std::min<i64>((now - f.alpha_off).ps / cfg.dcqcn.alpha_timer.ps, 6000);
      for (i64 i = 0; i < missed; ++i) f.rate.on_alpha_timer();
      schedule_alpha(fi);
    }
  }

  void wake_blocked(int p) {
    Port& pt = ports[p];
    if (nodes[pt.node].is_switch || pt.blocked.empty()) return;
    std::vector<int> ready;
    ready.swap(pt.blocked);
    for (int fi : ready) {
      flows[fi].waiting = false;
      send(fi);
    }
  }

  // The sender injects one frame of the flow and paces the next at its current rate.
  void send(int fi) {
    Flow& f = flows[fi];
    f.pacing = false;
    if (!active(f) || f.waiting) return;
    const int p = f.routes[0][0];  // every route leaves through the sender's one port
    Port& pt = ports[p];
    i64 queued = 0;
    for (i64 b : pt.qbytes) queued += b;
    if (queued >= kHostQueueFrames * cfg.frame.n) {
      f.waiting = true;
      pt.blocked.push_back(fi);
      return;
    }
    i64 bytes = f.remaining < 0 ? cfg.frame.n : std::min(f.remaining, cfg.frame.n);
    if (f.messages) bytes = std::min(bytes, f.msgs[f.sending].left);  // a frame holds one message's bytes
    if (cfg.nscc.enabled && f.inflight > 0 && f.inflight + bytes > f.window.window().n) {
      f.window_full = true;
      return;
    }
    if (f.remaining > 0) f.remaining -= bytes;
    Packet k;
    k.flow = fi;
    k.bytes = bytes;
    k.prio = f.prio;
    k.seq = f.next_seq++;
    k.path = f.mode == Multipath::spray ? static_cast<int>(k.seq % static_cast<i64>(f.routes.size())) : f.ecmp;
    k.sent = ctx().now();
    if (f.messages) {
      Message& m = f.msgs[f.sending];
      k.msg_first = m.left == m.size;
      m.left -= bytes;
      k.msg_last = m.left == 0;
      if (k.msg_last) ++f.sending;
    }
    f.inflight += bytes;
    enqueue(p, new_packet(k));
    if (cfg.dcqcn.enabled) f.rate.on_sent(Bytes(bytes));
    const Bandwidth r = cfg.dcqcn.enabled ? f.rate.rate() : pt.rate;
    f.stats.final_rate = r;
    if (f.stats.min_rate.bps == 0 || r < f.stats.min_rate) f.stats.min_rate = r;
    Impl* self_ = this;
    f.pacing = true;
    ctx().in(transfer_time(Bytes(bytes + kWireOverhead), r), [self_, fi] { self_->send(fi); });
  }
};

Fabric::Fabric(SimContext& ctx, std::string name, FabricConfig cfg)
    : Component(ctx, std::move(name)), impl_(std::make_unique<Impl>(*this, std::move(cfg))) {
  if (impl_->cfg.frame.n <= 0 || impl_->cfg.buffer.n <= 0)
    throw InputError(this->name(), "", "frame and buffer sizes must be positive");
}
Fabric::~Fabric() = default;

int Fabric::add_host(const std::string& name) {
  impl_->nodes.push_back({name, false, {}, 0});
  return static_cast<int>(impl_->nodes.size()) - 1;
}
int Fabric::add_switch(const std::string& name) {
  impl_->nodes.push_back({name, true, {}, 0});
  return static_cast<int>(impl_->nodes.size()) - 1;
}

int Fabric::connect(int a, int b, Bandwidth rate, double cable_m) {
  auto& ps = impl_->ports;
  const int pa = static_cast<int>(ps.size());
  const Time delay(static_cast<i64>(cable_m * static_cast<double>(impl_->cfg.pfc.cable_per_meter.ps)));
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
    const bool to_switch = impl_->nodes[ps[ps[p].peer].node].is_switch;
    ps[p].credits.fill(impl_->cfg.pfc.credit && to_switch ? impl_->cfg.pfc.credits.n : INT64_MAX / 2);
  }
  impl_->nodes[a].ports.push_back(pa);
  impl_->nodes[b].ports.push_back(pa + 1);
  return pa;
}

int Fabric::port_between(int a, int b) const {
  for (int p : impl_->nodes[a].ports)
    if (impl_->ports[impl_->ports[p].peer].node == b) return p;
  throw InputError(name(), "", fmt::format("no link between {} and {}", impl_->nodes[a].name, impl_->nodes[b].name));
}

int Fabric::add_flow(const std::vector<int>& nodes, Bytes size, Time start, int priority) {
  return add_flow(std::vector<std::vector<int>>{nodes}, Multipath::ecmp, size, start, priority);
}

int Fabric::add_flow(const std::vector<std::vector<int>>& paths, Multipath mode, Bytes size, Time start,
                     int priority) {
  const int fi = build_flow(paths, mode, size, priority);
  Impl* im = impl_.get();
  ctx().at(start, [im, fi] {
    im->send(fi);
    if (im->cfg.dcqcn.enabled) {
      im->schedule_increase(fi);
      im->schedule_alpha(fi);
    }
  });
  return fi;
}

int Fabric::build_flow(const std::vector<std::vector<int>>& paths, Multipath mode, Bytes size, int priority) {
  if (paths.empty()) throw InputError(name(), "", "a flow needs a route");
  Impl::Flow f;
  f.remaining = size.n > 0 ? size.n : -1;
  f.prio = priority;
  f.mode = mode;
  for (const auto& nodes : paths) {
    if (nodes.size() < 2) throw InputError(name(), "", "a flow needs a source and a destination");
    if (nodes.front() != paths[0].front() || nodes.back() != paths[0].back())
      throw InputError(name(), "", "all routes of a flow join the same two hosts");
    if (impl_->nodes[nodes.front()].is_switch || impl_->nodes[nodes.back()].is_switch)
      throw InputError(name(), "", "flows start and end at hosts");
    std::vector<int> route;
    for (std::size_t i = 0; i + 1 < nodes.size(); ++i) route.push_back(port_between(nodes[i], nodes[i + 1]));
    f.routes.push_back(std::move(route));
  }
  // CNPs return on the idle reverse path of the first route: a minimum frame and the
  // cable per hop.
  for (int p : f.routes[0])
    f.cnp_delay += transfer_time(Bytes(64 + kWireOverhead), impl_->ports[p].rate) + impl_->ports[p].delay;
  const int fi = static_cast<int>(impl_->flows.size());
  // ECMP: a switch hashes the flow's header fields with its hash seed; here the flow
  // number and the simulation seed stand for both.
  std::uint64_t h = ctx().seed() ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(fi + 1));
  f.ecmp = static_cast<int>(splitmix64(h) % f.routes.size());
  f.rate = DcqcnRate(impl_->cfg.dcqcn, impl_->ports[f.routes[0][0]].rate);
  f.window = NsccWindow(impl_->cfg.nscc, impl_->ports[f.routes[0][0]].rate, impl_->cfg.frame);
  impl_->flows.push_back(std::move(f));
  return fi;
}

int Fabric::open_flow(const std::vector<int>& nodes, int priority) {
  const int fi = build_flow({nodes}, Multipath::ecmp, Bytes(0), priority);
  Impl::Flow& f = impl_->flows[fi];
  f.messages = true;
  f.remaining = 0;  // idle until a message comes
  return fi;
}

void Fabric::send_message(int fi, Bytes bytes, Delivered first, Delivered last) {
  if (bytes.n <= 0) throw InputError(name(), "", "a message needs at least one byte");
  Impl::Flow& f = impl_->flows.at(fi);
  if (!f.messages) throw InputError(name(), "", "send_message on a flow not opened with open_flow");
  const bool idle = f.remaining == 0;
  f.msgs.push_back({bytes.n, bytes.n, std::move(first), std::move(last)});
  f.remaining += bytes.n;
  if (!idle) return;  // the flow is sending: it reaches this message in turn
  if (impl_->cfg.dcqcn.enabled) impl_->restart_timers(fi);
  if (!f.pacing && !f.waiting && !f.window_full) impl_->send(fi);
}

int Fabric::route_of(int f) const { return impl_->flows.at(f).ecmp; }

void Fabric::watch_queue(int port, Time from) {
  impl_->watch = port;
  impl_->watch_from = impl_->watch_last = from;
  watch_min_ = Bytes(INT64_MAX);
  watch_max_ = Bytes(0);
}

double Fabric::mean_watched_queue(Time until) const {
  const i128 total = impl_->watch_integral + static_cast<i128>(impl_->watch_value) * (until - impl_->watch_last).ps;
  const i64 span = (until - impl_->watch_from).ps;
  return span > 0 ? static_cast<double>(total) / static_cast<double>(span) : 0;
}

const FlowStats& Fabric::flow(int f) const {
  FlowStats& s = impl_->flows.at(f).stats;
  s.final_rate = impl_->cfg.dcqcn.enabled ? impl_->flows[f].rate.rate() : s.final_rate;
  return s;
}
const PortStats& Fabric::port(int p) const { return impl_->ports.at(p).stats; }

Bytes Fabric::delivered_before(int f, Time t) const {
  const auto& bins = impl_->flows.at(f).bins;
  const auto n = std::min<std::size_t>(bins.size(), static_cast<std::size_t>(t.ps / kBin.ps));
  i64 sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += bins[i];
  return Bytes(sum);
}

std::string Fabric::pending_work() const {
  int left = 0;
  for (const auto& f : impl_->flows) left += f.remaining > 0;
  return left ? fmt::format("{} flows unfinished", left) : std::string();
}

}  // namespace iowall::net
