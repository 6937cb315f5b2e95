#include "models/nvmeof/packet_network.hpp"

#include <algorithm>
#include <deque>

#include <fmt/format.h>

#include "models/net/ethernet_switch.hpp"
#include "models/net/infiniband_switch.hpp"

namespace iowall::nvmeof {

namespace {
// Link bytes a frame occupies besides its own: preamble, start delimiter, gap.
constexpr Bytes kGap = net::kWireOverhead;

// Sets a counter to `v` (counters only count up; the totals are published once).
void set(Counter& c, std::uint64_t v) {
  if (v > c.value()) c.add(v - c.value());
}
}  // namespace

struct PacketNetwork::Published {
  Counter pauses, paused_ns, paused_max_ns, marks, cnps, drops, queue_max, queue_mean;
  std::deque<Counter> per_flow;  // delivered, rate_min, rate_final, marks per flow
};

PacketNetwork::PacketNetwork(PathEnv& env, const net::DcqcnConfig& dcqcn)
    : published_(std::make_unique<Published>()) {
  net::FabricConfig cfg;
  cfg.dcqcn = dcqcn;
  // The fabric's buffer, PFC and ECN are those of its (first) switch; without one, a
  // switch's defaults, which a direct NIC-to-NIC link never uses. An InfiniBand fabric
  // has credits per hop and lane and no congestion marking (models/net/infiniband_switch.hpp).
  const auto switches = env.topology.devices_of("ethernet_switch");
  const auto ib_switches = env.topology.devices_of("infiniband_switch");
  if (!switches.empty() && !ib_switches.empty())
    throw InputError(env.file, env.pointer + "/fabric",
                     fmt::format("the per-packet network is Ethernet or InfiniBand, not both: {} and {} are both switches",
                                 switches.front()->name(), ib_switches.front()->name()));
  // The links' protocol: the switches'; without a switch, the first link's (below).
  const bool switched = !switches.empty() || !ib_switches.empty();
  std::string protocol = ib_switches.empty() ? "ethernet" : "infiniband";
  const Params none(Json::object(), {env.file, env.pointer});
  if (!ib_switches.empty()) {
    const auto& sw = static_cast<const InfinibandSwitch&>(*ib_switches.front());
    cfg.buffer = sw.port_buffer * sw.ports_count;
    cfg.pfc = net::PfcConfig::read(none);
    cfg.pfc.enabled = false;
    cfg.pfc.credit = true;
    cfg.pfc.credits = sw.credits_per_lane();
    cfg.ecn = net::EcnConfig::read(none);
    cfg.ecn.enabled = false;
  } else if (!switches.empty()) {
    const auto& sw = static_cast<const EthernetSwitch&>(*switches.front());
    cfg.buffer = sw.buffer;
    cfg.pfc = sw.pfc;
    cfg.ecn = sw.ecn;
    // A lost frame would need RoCE's retransmission, which is not modelled: the I/O
    // behind it would never complete.
    if (!cfg.pfc.enabled && !cfg.pfc.credit)
      throw InputError(sw.params().where().file, sw.params().pointer_to("pfc"),
                       "the per-packet network of an NVMe-oF path needs a lossless fabric (PFC or credits): "
                       "retransmission after a drop is not modelled");
  } else {
    cfg.buffer = Bytes(16'000'000);
    cfg.pfc = net::PfcConfig::read(none);
    cfg.ecn = net::EcnConfig::read(none);
  }
  const Link* first = nullptr;
  for (const auto& l : env.topology.links())
    if (l->a().role() == PortRole::network && l->b().role() == PortRole::network) {
      if (!first && !switched) protocol = l->spec().protocol;
      if (l->spec().protocol != protocol)
        throw InputError(env.file, env.pointer + "/fabric",
                         fmt::format("the per-packet network's links match its switches ({}); {}.{}--{}.{} is {}",
                                     protocol, l->a().owner().name(), l->a().name(), l->b().owner().name(),
                                     l->b().name(), l->spec().protocol));
      if (!first) first = l.get();
    }
  if (!first) throw InputError(env.file, env.pointer + "/fabric", "the topology has no network link");
  wire_ = first->spec().wire;
  // A frame: one path MTU of payload, its headers, and the RETH an RDMA WRITE's first packet adds.
  cfg.frame = Bytes(wire_.max_payload + wire_.packet_overhead + wire_.fixed_overhead) - kGap;
  fabric_ = std::make_unique<net::Fabric>(env.ctx, "net", cfg);
  auto node = [&](const Device& d) {
    for (const auto& [dev, n] : nodes_)
      if (dev == &d) return n;
    const int n = d.forwards() ? fabric_->add_switch(d.name()) : fabric_->add_host(d.name());
    nodes_.emplace_back(&d, n);
    return n;
  };
  for (const auto& l : env.topology.links()) {
    if (l->a().role() != PortRole::network || l->b().role() != PortRole::network) continue;
    const Device &a = l->a().owner(), &b = l->b().owner();
    const double cable_m = ratio(l->spec().latency, cfg.pfc.cable_per_meter);
    const int pa = fabric_->connect(node(a), node(b), l->spec().bandwidth, cable_m);
    (a.forwards() ? switch_ports_ : host_ports_).push_back(pa);
    (b.forwards() ? switch_ports_ : host_ports_).push_back(pa + 1);
    for (const Device* d : {&a, &b})
      if (d->forwards() && dcqcn.enabled && dcqcn.min_rate > l->spec().bandwidth)
        throw InputError(env.file, env.pointer + "/min_rate", "the DCQCN rate floor exceeds a network link's rate");
    // PFC's headroom: bytes still arriving after a PAUSE must fit above XOFF.
    for (const Device* d : {&a, &b}) {
      if (!d->forwards() || !cfg.pfc.enabled) continue;
      const Bandwidth rate = l->spec().bandwidth;
      const Bytes room = net::pfc_headroom(cfg.pfc, rate, cfg.frame + kGap, cable_m).bytes(rate);
      if (cfg.pfc.xoff + room > cfg.buffer)
        throw InputError(d->params().where().file, d->params().pointer_to("xoff"),
                         fmt::format("xoff {} plus the PFC headroom {} of the link to {} exceeds the buffer {}: "
                                     "PAUSE would come too late",
                                     to_string(cfg.pfc.xoff), to_string(room), (d == &a ? b : a).name(),
                                     to_string(cfg.buffer)));
    }
  }
  Published& s = *published_;
  auto& stats = env.ctx.stats();
  stats.add("net/pause_frames", "frames", "PAUSE frames the switches sent (XOFF)", s.pauses);
  stats.add("net/paused_ns", "ns", "time the senders' ports spent paused, summed over ports", s.paused_ns);
  stats.add("net/paused_max_ns", "ns", "time the most paused port spent paused", s.paused_max_ns);
  stats.add("net/ecn_marks", "packets", "packets marked Congestion Experienced", s.marks);
  stats.add("net/cnps", "packets", "CNPs the receivers returned", s.cnps);
  stats.add("net/drops", "frames", "frames lost for want of buffer", s.drops);
  stats.add("net/queue_max_bytes", "B", "largest egress queue of any switch port", s.queue_max);
  stats.add("net/queue_mean_bytes", "B", "mean egress queue of the port into the client (watched)", s.queue_mean);
}

PacketNetwork::~PacketNetwork() = default;

int PacketNetwork::node_of(const std::string& device) const {
  for (const auto& [dev, n] : nodes_)
    if (dev->name() == device) return n;
  return -1;
}

int PacketNetwork::open(const Route& wire, bool watch) {
  // The wire route's devices, NIC to NIC, are the network's nodes (NICs, switches).
  std::vector<int> nodes;
  for (const std::string& d : wire.devices) {
    const int n = node_of(d);
    if (n < 0) throw std::logic_error("packet network: " + d + " is not on the network");
    nodes.push_back(n);
  }
  const int f = fabric_->open_flow(nodes);
  // Several queue pairs between two NICs (one per drive) are told apart by a number.
  std::string name = fmt::format("{}>{}", wire.devices.front(), wire.devices.back());
  const auto same = std::count_if(flows_.begin(), flows_.end(), [&](const auto& fl) {
    return fl.first == name || fl.first.rfind(name + "#", 0) == 0;
  });
  if (same > 0) name += fmt::format("#{}", same + 1);
  flows_.emplace_back(name, f);
  auto& stats = fabric_->ctx().stats();
  auto& c = published_->per_flow;
  const std::string base = "net/" + name + "/";
  stats.add(base + "delivered_bytes", "B", "bytes of frames delivered on this flow", c.emplace_back());
  stats.add(base + "rate_min_Mbps", "Mb/s", "lowest rate the sender paced at (DCQCN)", c.emplace_back());
  stats.add(base + "rate_final_Mbps", "Mb/s", "the sender's rate at the end of the run", c.emplace_back());
  stats.add(base + "ecn_marks", "packets", "packets of this flow marked", c.emplace_back());
  if (watch && !watching_ && nodes.size() >= 3) {
    watching_ = true;
    fabric_->watch_queue(fabric_->port_between(nodes[nodes.size() - 2], nodes.back()), Time(0));
  }
  return f;
}

std::string PacketNetwork::summary() const {
  Published& s = *published_;
  std::uint64_t pauses = 0, marks = 0, cnps = 0;
  Time paused, paused_max;
  Bytes queue_max;
  for (int p : switch_ports_) {
    pauses += fabric_->port(p).pauses_sent;
    queue_max = std::max(queue_max, fabric_->port(p).max_queue);
  }
  for (int p : host_ports_) {
    paused += fabric_->port(p).paused_time;
    paused_max = std::max(paused_max, fabric_->port(p).paused_time);
  }
  Bandwidth rate_min = Bandwidth::max();
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    const net::FlowStats& fs = fabric_->flow(flows_[i].second);
    marks += fs.marked;
    cnps += fs.cnps;
    // Statistics are integer counts in their units (B, Mb/s).
    set(s.per_flow[4 * i], static_cast<std::uint64_t>(fs.delivered.count()));
    set(s.per_flow[4 * i + 1], static_cast<std::uint64_t>(fs.min_rate.whole_Mbps()));
    set(s.per_flow[4 * i + 2], static_cast<std::uint64_t>(fs.final_rate.whole_Mbps()));
    set(s.per_flow[4 * i + 3], fs.marked);
    if (fs.delivered.is_positive() && fs.min_rate.is_positive()) rate_min = std::min(rate_min, fs.min_rate);
  }
  const Time end = fabric_->ctx().now();
  const double queue_mean = watching_ ? fabric_->mean_watched_queue(end) : 0;
  set(s.pauses, pauses);
  set(s.paused_ns, static_cast<std::uint64_t>(paused.whole_ns()));
  set(s.paused_max_ns, static_cast<std::uint64_t>(paused_max.whole_ns()));
  set(s.marks, marks);
  set(s.cnps, cnps);
  set(s.drops, fabric_->drops());
  set(s.queue_max, static_cast<std::uint64_t>(queue_max.count()));  // in B
  set(s.queue_mean, static_cast<std::uint64_t>(queue_mean));
  return fmt::format("packet network: {} PAUSE, ports paused {:.1f} us (most {:.1f} us), {} ECN marks, {} CNPs, "
                     "lowest sender rate {:.1f} Gb/s, queue max {} B mean {:.0f} B, {} drops",
                     pauses, paused.seconds() * 1e6, paused_max.seconds() * 1e6, marks, cnps,
                     rate_min == Bandwidth::max() ? 0.0 : rate_min.Gbps_value(), queue_max.count(),  // queue in B
                     queue_mean, fabric_->drops());
}

Bytes PacketNetwork::frame_bytes(Bytes payload) const {
  return payload + (Bytes(wire_.packet_overhead) - kGap) * wire_.packets(payload) + Bytes(wire_.fixed_overhead);
}

}  // namespace iowall::nvmeof
