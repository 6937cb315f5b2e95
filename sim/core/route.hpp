// A route is the list of hops bytes take between two devices: link channels and the
// resources inside devices they cross. RouteMover moves chunks over a route with
// virtual cut-through: a chunk enters hop i+1 when its first byte arrives there (one
// hop latency after service began on hop i) and finishes there no earlier than its
// last byte arrives. A hop is busy only for the chunk's own transfer time, so a fast
// hop fed by a slow one serves other chunks meanwhile, as interleaved packets would.
// Every hop is a Server: chunks queue and arbitrate; the narrowest hop sets the pace.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "sim/core/inline_function.hpp"
#include "sim/core/link.hpp"
#include "sim/core/server.hpp"

namespace iowall {

class Device;

struct Hop {
  Server* server = nullptr;
  Bandwidth bandwidth;
  const WireFormat* wire = nullptr;       // null: the payload travels as is
  const WireFormat* wire_read = nullptr;  // for DMA reads (completions); null: as `wire`
  Time latency;                      // from this hop's output to the next hop's input
  Counter* payload = nullptr;        // payload counter to credit, if any
  std::string label;                 // "sw0.dn1>nvme0.up" for reports
  int job_class = 0;                 // arbitration class at this hop: the ingress port's index
  bool class_by_tc = false;          // arbitrate by the transfer's traffic class instead
  bool store_and_forward = false;    // the device before this hop forwards only whole packets

  Time service(Bytes bytes, DmaKind kind = DmaKind::write) const {
    // A transfer's size repeats (queue entries, doorbells, commands): remember the last
    // few answers, saving the 128-bit division on the hot path.
    const i64 key = bytes.count() * 2 + (kind == DmaKind::read ? 1 : 0);  // a hash key
    ServiceMemo& m = memo_[static_cast<std::size_t>(key) % memo_.size()];
    if (m.key != key) m = {key, compute_service(bytes, kind)};
    return m.service;
  }
  // Public only to keep Hop an aggregate; not part of its meaning.
  struct ServiceMemo {
    i64 key = -1;
    Time service;
  };
  Time compute_service(Bytes bytes, DmaKind kind) const {
    const WireFormat* w = kind == DmaKind::read && wire_read ? wire_read : wire;
    return transfer_time(w ? w->wire_bytes(bytes) : bytes, bandwidth);
  }
  mutable std::array<ServiceMemo, 8> memo_{};
};

struct Route {
  std::vector<Hop> hops;
  std::vector<std::string> devices;  // device ids along the route, ends included
  // Lowest hop bandwidth after wire overhead for a payload of `chunk`.
  Bandwidth bottleneck(Bytes chunk) const;
  const Hop* narrowest(Bytes chunk) const;
  Time latency() const;
  std::string describe() const;
};

class RouteMover {
public:
  using Done = InlineFunction<void()>;
  using Arriving = InlineFunction<void(Time arrival)>;
  explicit RouteMover(SimContext& ctx) : ctx_(ctx) {}
  // Sends `bytes` along `route` as one chunk; `done` runs when the tail arrives.
  // `kind` picks the wire format: a device writing (posted) or reading (completions).
  // `tc` is the PCIe traffic class, used where a switch arbitrates by class.
  void send(const Route& route, Bytes bytes, Done done, DmaKind kind = DmaKind::write, int tc = 0);
  // The same, but `arriving(at)` runs as soon as the arrival time is known (when the
  // last hop takes the chunk on), not at it: for a receiver that times what follows
  // itself (a CQ entry posted behind the data), saving the arrival's event.
  void send_arriving(const Route& route, Bytes bytes, Arriving arriving, DmaKind kind = DmaKind::write);
  // Sends a control message that fits a packet or a few (a doorbell, queue entries, an
  // MSI-X write). At chunk fidelity it is timed when sent: at each hop it waits behind
  // the work queued there (FIFO, as its packets would) and charges its own bytes' time
  // to the hop (delaying the next chunk), without queueing as a job; one event in all.
  // At tlp fidelity it travels like any packet.
  void signal(const Route& route, Bytes bytes, Done done, DmaKind kind = DmaKind::write);
  // The timing half of `signal`: charges the hops for a message leaving at `depart` and
  // returns when it arrives, scheduling nothing (chunk fidelity only). A chain of
  // messages (a doorbell, then the fetch it triggers) then costs one event in all.
  Time pass(const Route& route, Bytes bytes, DmaKind kind, Time depart);
  // Runs `done` at `at` (not before now), through the transfer pool (Done is too big to
  // capture in an event).
  void call_at(Time at, Done done);
  bool signals_are_packets() const;  // tlp fidelity: messages travel as packets
  std::size_t in_flight() const { return in_flight_; }

private:
  struct Transfer {
    const Route* route;
    Bytes bytes;
    Done done;
    Arriving arriving;  // set instead of `done` by send_arriving
    std::uint32_t next_free;
    DmaKind kind;
    int tc;
    std::uint32_t parent = UINT32_MAX;  // at tlp fidelity: the transfer this TLP belongs to
    i64 pieces_left = 0;                // at tlp fidelity, on the parent: TLPs not yet arrived
  };
  void enter(std::uint32_t t, std::uint32_t hop, Time tail_in);
  void start(const Route& route, Bytes bytes, Done done, Arriving arriving, DmaKind kind, int tc);
  void complete(std::uint32_t t);
  void free_slot(std::uint32_t t);  // back to the pool
  void release(std::uint32_t t);    // a transfer leaves flight: back to the pool
  // The largest payload one packet carries on `route` (the smallest MPS or completion size).
  static i64 packet_payload(const Route& route, DmaKind kind);
  std::uint32_t allocate();

  SimContext& ctx_;
  std::vector<Transfer> pool_;
  std::uint32_t free_ = UINT32_MAX;
  std::size_t in_flight_ = 0;
};

}  // namespace iowall
