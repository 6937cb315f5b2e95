// A packet-level Ethernet fabric on the event engine: hosts and switches joined by
// full-duplex links. A switch holds packets in one shared buffer, queues them per
// egress port and priority, counts them per ingress port and priority for PFC, and
// marks ECN at enqueue. Senders pace each flow at its DCQCN rate; receivers return
// CNPs for marked packets. Every frame occupies its link for its wire time; PAUSE
// frames wait only for the frame in service.
#pragma once
#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "models/net/dcqcn.hpp"
#include "models/net/nscc.hpp"
#include "models/net/pfc.hpp"
#include "sim/core/component.hpp"
#include "sim/core/inline_function.hpp"

namespace iowall::net {

inline constexpr int kPriorities = 8;
inline constexpr i64 kWireOverhead = 20;  // preamble, start delimiter and inter-frame gap

struct FabricConfig {
  PfcConfig pfc;
  EcnConfig ecn;
  DcqcnConfig dcqcn;
  NsccConfig nscc;  // when enabled, senders run NSCC windows instead of DCQCN rates
  Bytes buffer;     // each switch's shared packet buffer
  Bytes frame;      // data frame size (at most the MTU)
};

// How a flow with several equal-cost routes uses them: RoCEv2 hashes the flow onto
// one (ECMP); Ultra Ethernet sprays its packets over all of them in turn.
enum class Multipath { ecmp, spray };

struct FlowStats {
  Bytes delivered;
  std::uint64_t out_of_order = 0;  // packets that arrived ahead of a missing one
  Bytes max_reorder;               // most bytes the receiver held waiting for a gap
  Time first_byte, last_byte;
  std::uint64_t marked = 0, cnps = 0;
  Bandwidth final_rate;
  Bandwidth min_rate;              // lowest rate the sender paced at (DCQCN's deepest cut)
};

struct PortStats {
  std::uint64_t pauses_sent = 0, pauses_received = 0;
  Time paused_time;        // time this egress spent paused (any priority)
  Bytes max_skid;          // most wire bytes received on this ingress after one XOFF
  Bytes max_held;          // most bytes of one priority held from this ingress
  Bytes max_queue;         // largest egress queue of data
};

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
  static constexpr Time kBin = Time(10'000'000);

  std::string pending_work() const override;

private:
  int build_flow(const std::vector<std::vector<int>>& paths, Multipath mode, Bytes size, int priority);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  Bytes watch_min_, watch_max_;
  std::uint64_t drops_ = 0;
};

}  // namespace iowall::net
