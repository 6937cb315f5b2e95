// Egress queueing and the shared packet buffer. Every port (a switch's or a NIC's)
// queues data frames in one FIFO per priority, behind a queue of PFC control frames
// that always go first; the next data frame is the front of the highest priority that
// the peer has not paused and whose credits (credit-based flow control) cover it. A
// switch admits an arriving frame only while its one shared buffer has room.
#pragma once
#include <array>
#include <deque>

#include "models/net/packet.hpp"
#include "models/net/pfc_state.hpp"

namespace iowall::net {

struct EgressQueue {
  std::array<std::deque<int>, kPriorities> q;
  std::array<Bytes, kPriorities> bytes{};   // data bytes queued per priority
  std::deque<int> control;                  // PAUSE and resume frames
  std::array<Bytes, kPriorities> credits{}; // room the next hop has advertised
  bool busy = false;                        // a frame is on the wire

  Bytes queued() const {
    Bytes q_bytes;
    for (Bytes b : bytes) q_bytes += b;
    return q_bytes;
  }
  void push(const PacketPool& pool, int pkt) {
    const Packet& k = pool[pkt];
    q[k.prio].push_back(pkt);
    bytes[k.prio] += k.bytes;
  }
  // Takes the next data frame that may go, with its bytes and credits; -1 when none.
  int pop(const PacketPool& pool, const PauseState& pause) {
    for (int pr = kPriorities - 1; pr >= 0; --pr) {
      if (pause.paused[pr] || q[pr].empty()) continue;
      const int pkt = q[pr].front();
      const Bytes b = pool[pkt].bytes;
      if (credits[pr] < b) continue;
      q[pr].pop_front();
      bytes[pr] -= b;
      credits[pr] -= b;
      return pkt;
    }
    return -1;
  }
};

// A switch's shared buffer: every queued frame of every port draws on it.
struct SharedBuffer {
  Bytes used;
  bool admits(Bytes frame, Bytes size) const { return used + frame <= size; }
};

}  // namespace iowall::net
