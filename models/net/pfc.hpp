// Priority flow control (IEEE 802.1Qbb): a switch ingress that holds more than XOFF
// bytes of one priority sends PAUSE upstream, and XON below the lower threshold.
// Bytes keep arriving after XOFF until the upstream has heard the PAUSE and finished
// the frame it was sending; the headroom above XOFF must hold them. The headroom is
// the sum of the delays of that loop, each in bit times at the link rate. The
// alternative, credit-based flow control (InfiniBand), lets a sender start a frame only
// while the next hop has advertised room for it, so nothing arrives that has no room.
#pragma once
#include "sim/core/params.hpp"
#include "sim/core/units.hpp"

namespace iowall::net {

struct PfcConfig {
  bool enabled = true;
  bool credit = false;        // instead: InfiniBand-style credits per hop and priority
  Bytes credits;              // receive buffer each switch ingress advertises per priority
  Bytes xoff;                 // ingress bytes of one priority that trigger PAUSE
  Bytes xon;                  // ...and that release it
  i64 interface_bits = 0;     // PHY/MAC delay of the pause loop (both ends)
  i64 response_bits = 0;      // the upstream's reaction to a received PAUSE
  i64 pause_frame_bits = 0;   // the PAUSE frame on the wire
  Time cable_per_meter;       // propagation per metre of cable
  static PfcConfig read(const Params& p);
};

struct Headroom {
  Time wait_frame;       // the switch finishes the frame it is sending before the PAUSE
  Time pause_frame;      // the PAUSE itself
  Time cable_round_trip; // PAUSE goes up, the last data comes down
  Time interface;        // PHY/MAC delays of the loop
  Time response;         // the upstream decides to stop
  Time finish_frame;     // ...and finishes the frame it has started
  Time total() const { return wait_frame + pause_frame + cable_round_trip + interface + response + finish_frame; }
  Bytes bytes(Bandwidth rate) const { return bytes_in(total(), rate); }
};

// The worst case: a maximum frame (`max_frame`, on the wire) in service at both ends.
Headroom pfc_headroom(const PfcConfig& c, Bandwidth rate, Bytes max_frame, double cable_m);

// Throws InputError naming the parameter when XOFF plus headroom exceeds `buffer`.
void check_pfc(const PfcConfig& c, Bytes buffer, Bytes headroom, const std::string& where);

}  // namespace iowall::net
