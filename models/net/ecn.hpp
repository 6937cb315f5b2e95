// ECN marking at a switch egress: a RED-like ramp of the marking probability from 0 at
// Kmin to pmax at Kmax, 1 above (RFC 3168; the marks DCQCN and NSCC react to). The
// queue compared is the frame's priority at the egress, as the frame leaves (the
// queue as it is now) or as it arrives.
#pragma once
#include "models/net/packet.hpp"
#include "sim/core/params.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/units.hpp"

namespace iowall::net {

struct EcnConfig {
  bool enabled = true;
  Bytes kmin, kmax;
  double pmax = 0.2;
  bool at_dequeue = true;  // mark leaving packets (the current queue) or arriving ones
  static EcnConfig read(const Params& p);
  // Marking probability for an egress queue holding `queued` bytes.
  double probability(Bytes queued) const;
};

// Marks `k` Congestion Experienced with the probability for a queue of `queued` bytes;
// true when it was marked now (a frame is marked once; unmarked, it draws once).
inline bool mark_ecn(const EcnConfig& c, Packet& k, Bytes queued, Rng& rng) {
  if (k.ecn || !(rng.uniform() < c.probability(queued))) return false;
  k.ecn = true;
  return true;
}

}  // namespace iowall::net
