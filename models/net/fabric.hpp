// A packet-level Ethernet fabric on the event engine: hosts and switches joined by
// full-duplex links, every frame occupying its link for its wire time. Its mechanisms
// live in their own files: egress queueing and the shared buffer (switch_queue.hpp),
// PFC pause state per ingress and priority (pfc_state.hpp; PAUSE frames wait only for
// the frame in service), ECN marking (ecn.hpp), sender pacing and congestion control
// chosen by name, DCQCN or NSCC (congestion_control.hpp), ECMP or spraying over equal
// routes (route_choice.hpp), and the receiver's reordering (receiver.hpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "models/net/dcqcn.hpp"
#include "models/net/fabric_stats.hpp"
#include "models/net/nscc.hpp"
#include "models/net/packet.hpp"
#include "models/net/pfc.hpp"
#include "models/net/receiver.hpp"
#include "models/net/route_choice.hpp"
#include "sim/core/component.hpp"
#include "sim/core/inline_function.hpp"

namespace iowall::net {

struct FabricConfig {
  PfcConfig pfc;
  EcnConfig ecn;
  DcqcnConfig dcqcn;
  NsccConfig nscc;  // when enabled, senders run NSCC windows instead of DCQCN rates
  Bytes buffer;     // each switch's shared packet buffer
  Bytes frame;      // data frame size (at most the MTU)
};

struct FabricCore;

class Fabric : public Component {
public:
  Fabric(SimContext& ctx, std::string name, FabricConfig cfg);
  ~Fabric() override;

  int add_host(const std::string& name);
  int add_switch(const std::string& name);
  // Joins two nodes with a full-duplex link; returns the port id on `a` (the one on
  // `b` is that id + 1).
  int connect(int a, int b, Bandwidth rate, double cable_m);
  // A flow of `size` bytes from host `src` to host `dst` along `nodes` (src ... dst),
  // starting at `start`; size 0 sends until the run ends.
  int add_flow(const std::vector<int>& nodes, Bytes size, Time start, int priority = 3);
  // The same over several node paths (each src ... dst, same endpoints).
  int add_flow(const std::vector<std::vector<int>>& paths, Multipath mode, Bytes size, Time start,
               int priority = 3);
  int route_of(int f) const;  // ECMP: the route index the flow was hashed onto

  // A flow that carries messages (an RDMA queue pair's data): idle until one is sent,
  // in order, one after another, each split into frames of its own. Its congestion
  // control state lives across messages; its timers run while it has bytes to send.
  using Delivered = InlineFunction<void()>;
  int open_flow(const std::vector<int>& nodes, int priority = 3);
  // Queues `bytes` on message flow `f`: `first` runs when its first frame reaches the
  // receiver, `last` when its last one does.
  void send_message(int f, Bytes bytes, Delivered first, Delivered last);

  // Samples the data queue of egress port `port` (from `from` on) for time averages.
  void watch_queue(int port, Time from);
  double mean_watched_queue(Time until) const;   // bytes
  Bytes min_watched_queue() const { return watch_min_; }
  Bytes max_watched_queue() const { return watch_max_; }

  const FlowStats& flow(int f) const;
  const PortStats& port(int p) const;
  int port_between(int a, int b) const;  // egress port of a towards b
  std::uint64_t drops() const { return drops_; }
  // Bytes of flow `f` delivered before time `t` (delivery is recorded per 10 us bin).
  Bytes delivered_before(int f, Time t) const;
  static constexpr Time kBin = DeliveryLog::kBin;

  std::string pending_work() const override;

private:
  friend struct FabricCore;
  int build_flow(const std::vector<std::vector<int>>& paths, Multipath mode, Bytes size, int priority);
  std::unique_ptr<FabricCore> core_;
  Bytes watch_min_, watch_max_;
  std::uint64_t drops_ = 0;
};

}  // namespace iowall::net
