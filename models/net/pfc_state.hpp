// PFC state of one port, per priority (IEEE 802.1Qbb). Ingress side, where frames enter
// a switch: the bytes of each priority the switch still holds from this port, whether
// XOFF went upstream, and the bytes that arrived since (the skid the headroom must
// hold). Egress side: the priorities the peer has paused, and the time spent paused.
// The fabric sends the PAUSE and resume frames these ask for.
#pragma once
#include <algorithm>
#include <array>

#include "models/net/fabric_stats.hpp"
#include "models/net/packet.hpp"
#include "models/net/pfc.hpp"

namespace iowall::net {

struct IngressPfc {
  std::array<Bytes, kPriorities> held{};
  std::array<bool, kPriorities> xoff_sent{};
  std::array<Bytes, kPriorities> skid{};

  // A frame of `bytes` arrived: after an XOFF its wire bytes count as skid.
  void arrived(int prio, Bytes bytes, PortStats& s) {
    if (!xoff_sent[prio]) return;
    skid[prio] += bytes + kWireOverhead;  // on-wire bytes, as the headroom counts them
    s.max_skid = std::max(s.max_skid, skid[prio]);
  }
  // The switch admitted the frame: true when this priority now crosses XOFF on a
  // lossless fabric, so PAUSE must go upstream.
  bool hold(int prio, Bytes bytes, const PfcConfig& c, PortStats& s) {
    held[prio] += bytes;
    s.max_held = std::max(s.max_held, held[prio]);
    if (!c.enabled || xoff_sent[prio] || held[prio] < c.xoff) return false;
    xoff_sent[prio] = true;
    skid[prio] = Bytes(0);
    return true;
  }
  // The frame left the switch: true when this priority falls to XON after an XOFF, so
  // the resume must go upstream.
  bool release(int prio, Bytes bytes, const PfcConfig& c) {
    held[prio] -= bytes;
    if (!xoff_sent[prio] || held[prio] > c.xon) return false;
    xoff_sent[prio] = false;
    return true;
  }
};

struct PauseState {
  std::array<bool, kPriorities> paused{};
  int count = 0;  // priorities paused
  Time since;     // ...since when, while any is

  // A PAUSE (on) or resume took effect at `now`: false when it changed nothing.
  bool set(int prio, bool on, Time now, PortStats& s) {
    if (paused[prio] == on) return false;
    paused[prio] = on;
    if (on && count++ == 0) since = now;
    if (!on && --count == 0) s.paused_time += now - since;
    return true;
  }
};

}  // namespace iowall::net
