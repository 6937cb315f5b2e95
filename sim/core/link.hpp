// A link joins two ports and has one channel per direction. A channel is a Server
// (bytes compete for it in FIFO order) with a propagation latency and a wire format
// that says how many bytes travel on the wire for a payload (packet headers, link
// layer traffic, line encoding already folded into the raw bandwidth).
#pragma once
#include <array>
#include <memory>
#include <string>

#include "sim/core/component.hpp"
#include "sim/core/port.hpp"
#include "sim/core/server.hpp"

namespace iowall {

// Payload bytes -> wire bytes: payload split into packets of at most `max_payload`,
// each paying `packet_overhead`, then link-layer traffic of num/den of that on top.
struct WireFormat {
  i64 max_payload = 0;       // 0: one packet, no splitting
  i64 packet_overhead = 0;   // bytes per packet (headers, framing, CRC)
  i64 link_num = 0, link_den = 1;  // extra link-layer bytes per wire byte (ACKs, flow control, SKP)
  i64 fixed_overhead = 0;    // once per transfer (a request packet travelling the same way, say)

  i64 packets(Bytes payload) const {
    if (!payload.is_positive()) return 0;
    return max_payload > 0 ? ceil_div(payload, Bytes(max_payload)) : 1;
  }
  Bytes wire_bytes(Bytes payload) const {
    const i64 tlp = payload.count() + packets(payload) * packet_overhead + fixed_overhead;
    return Bytes(tlp + (tlp * link_num + link_den - 1) / link_den);
  }
};

struct LinkSpec {
  std::string protocol;      // "pcie", "memory", "ethernet", ...
  Bandwidth bandwidth;       // per direction, after line encoding
  Time latency;              // propagation plus PHY, one way
  WireFormat wire;           // DMA writes (posted) and plain traffic
  WireFormat wire_read;      // read completions; unused (all zero) when the protocol has none
  std::string summary;       // "PCIe Gen5 x16", for tables
  i64 credits = 0;           // TLPs the receiver buffers (tlp fidelity's flow control); 0: unbounded
  std::string carries{};     // what one job on a direction carries (trace slices); empty: "<protocol> transfer"
};

// How a DMA moves bytes: the device writes them (posted writes travel with the
// data), or the device reads them (completions travel with the data).
enum class DmaKind { write, read };

class Link;

struct Channel {
  Link* link;
  int from_side;  // 0: a->b, 1: b->a
  Bandwidth bandwidth;
  Time latency;
  WireFormat wire, wire_read;
  std::unique_ptr<Server> server;
  Counter payload_bytes;  // payload carried (wire overhead not included)
  const WireFormat& format(DmaKind kind) const {
    return kind == DmaKind::read && wire_read.max_payload > 0 ? wire_read : wire;
  }
};

class Link : public Component {
public:
  Link(SimContext& ctx, Port& a, Port& b, LinkSpec spec);
  Port& a() const { return a_; }
  Port& b() const { return b_; }
  const LinkSpec& spec() const { return spec_; }
  // The channel that carries bytes out of `from`.
  Channel& from(const Port& from) { return channels_[&from == &a_ ? 0 : 1]; }
  Channel& direction(int from_side) { return channels_[from_side]; }
  Port& other(const Port& p) const { return &p == &a_ ? b_ : a_; }

private:
  Port& a_;
  Port& b_;
  LinkSpec spec_;
  std::array<Channel, 2> channels_;
};

}  // namespace iowall
