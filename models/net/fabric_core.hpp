// The shared state of a packet fabric and its per-packet steps, used by the fabric's
// mechanisms (internal to models/net): nodes and full-duplex ports, each port with its
// egress queue (switch_queue.hpp) and PFC state (pfc_state.hpp); flows with their
// routes (route_choice.hpp) and receivers (receiver.hpp); and the sender control that
// paces them (congestion_control.hpp). Every step runs on the engine's event queue;
// events carry indices (port, frame, flow), never pointers into growing vectors.
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "models/net/fabric.hpp"
#include "models/net/receiver.hpp"
#include "models/net/route_choice.hpp"
#include "models/net/switch_queue.hpp"

namespace iowall::net {

class SenderControl;

struct FabricCore {
  struct Port {
    int node = -1, peer = -1;
    Bandwidth rate;
    Time delay;
    EgressQueue out;     // frames waiting to leave through this port
    PauseState pause;    // priorities the peer has paused
    IngressPfc in;       // frames that entered a switch here and are still held
    std::vector<int> blocked;  // host: flows waiting for room in the NIC's queue
    PortStats stats;
  };
  struct Node {
    std::string name;
    bool is_switch = false;
    std::vector<int> ports;
    SharedBuffer buffer;  // switch
  };
  struct Message {
    Bytes size, left;  // bytes, and bytes not yet sent
    Fabric::Delivered first, last;
  };
  static constexpr Bytes kUnlimited{-1};
  struct Flow {
    std::vector<std::vector<int>> routes;  // egress port at each node from the source on, per route
    RouteChoice choice;
    i64 next_seq = 0;
    Bytes remaining;         // bytes left to send; kUnlimited: until the run ends
    int prio = 3;
    bool waiting = false;    // blocked on the NIC's queue
    bool pacing = false;     // a paced send is scheduled
    Time cnp_delay;          // CNPs and ACKs return over the idle reverse path
    ReorderBuffer reorder;
    DeliveryLog log;
    FlowStats stats;
    bool messages = false;        // carries messages (open_flow), not one stream of bytes
    std::deque<Message> msgs;     // sent or sending, not yet delivered; in order
    std::size_t sending = 0;      // index in msgs of the one being sent
  };

  Fabric& self;
  FabricConfig cfg;
  std::vector<Node> nodes;
  std::vector<Port> ports;
  std::vector<Flow> flows;
  PacketPool pool;
  std::unique_ptr<SenderControl> control;
  int watch = -1;
  Time watch_from, watch_last;
  Bytes watch_value;
  i128 watch_integral = 0;  // of the watched queue over time, in byte-picoseconds

  FabricCore(Fabric& f, FabricConfig c);
  ~FabricCore();
  SimContext& ctx() { return self.ctx(); }
  Time now() { return self.ctx().now(); }
  static bool active(const Flow& f) { return !f.remaining.is_zero(); }

  // Links and switches (fabric.cpp).
  void enqueue(int p, int pkt);
  void try_start(int p);
  void finish_tx(int p, int pkt);
  void release(int node, const Packet& k);
  void send_pause(int p, int prio, bool on);
  void arrive(int p, int pkt);
  void set_paused(int p, int prio, bool on);
  void queue_changed(int p);
  void wake_blocked(int p);

  // Senders and receivers (fabric_flows.cpp).
  // The bytes of the flow's next frame, or 0 when it may not send now: inactive,
  // blocked, or the NIC's queue is full (the flow then waits for room).
  Bytes next_frame(int fi);
  // Queues a frame of `bytes` of the flow at its NIC.
  void inject(int fi, Bytes bytes);
  // Records the rate the sender paces its next frame at (final and lowest rates).
  void note_rate(int fi, Bandwidth r);
  void deliver(int pkt);
  void message_progress(Flow& f, const Packet& k);
};

}  // namespace iowall::net
