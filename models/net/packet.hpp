// Frames of the packet fabric and the pool that recycles them. Events carry a frame's
// index, never a pointer (an event holds 24 bytes, and the pool may move when it
// grows); a freed slot is reused, so a run allocates only while its peak of frames in
// flight grows.
#pragma once
#include <vector>

#include "sim/core/units.hpp"

namespace iowall::net {

inline constexpr int kPriorities = 8;
inline constexpr Bytes kWireOverhead{20};  // preamble, start delimiter and inter-frame gap

struct Packet {
  int flow = -1;
  Bytes bytes;
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

class PacketPool {
public:
  // A slot holding `p`: a freed one if any (references into the pool stay valid), else
  // a new one (references may not).
  int add(const Packet& p) {
    if (free_.empty()) {
      pool_.push_back(p);
      return static_cast<int>(pool_.size()) - 1;
    }
    const int i = free_.back();
    free_.pop_back();
    pool_[i] = p;
    return i;
  }
  void free(int i) { free_.push_back(i); }
  Packet& operator[](int i) { return pool_[i]; }
  const Packet& operator[](int i) const { return pool_[i]; }

private:
  std::vector<Packet> pool_;
  std::vector<int> free_;
};

}  // namespace iowall::net
