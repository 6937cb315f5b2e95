// Ultra Ethernet's network-signal congestion control (NSCC), simplified from the UEC 1.0
// transport: a sender-side window of bytes in flight, steered by two signals every ACK
// carries, the ECN mark and the round-trip delay against a target:
//   no mark, delay under target   proportional increase (grow toward the free capacity)
//   no mark, delay over target    fair increase (one frame per window: queue elsewhere)
//   mark, delay over target       multiplicative decrease by the delay's excess, at most
//                                 once per round trip
//   mark, delay under target      no change (a transient mark of a short queue)
// Packets are paced at line rate within the window. Not modelled: UEC's receiver credits
// (RCCC), packet trimming, loss recovery and the quick-adapt reaction.
#pragma once
#include "sim/core/params.hpp"
#include "sim/core/units.hpp"

namespace iowall::net {

struct NsccConfig {
  bool enabled = false;
  Time target_delay;      // round-trip delay the window aims for
  double md = 0.5;        // multiplicative decrease gain on the delay's excess
  double pi_gain = 0.25;  // proportional increase gain (frames per ACK at zero delay)
  static NsccConfig read(const Params& p);
};

class NsccWindow {
public:
  NsccWindow() = default;
  NsccWindow(const NsccConfig& c, Bandwidth line, Bytes frame);
  // An ACK of `bytes`, ECN-marked or not, whose round trip took `rtt`, at `now`.
  void on_ack(Bytes bytes, bool marked, Time rtt, Time now);
  Bytes window() const { return whole_bytes(cwnd_); }
  std::uint64_t decreases() const { return decreases_; }

private:
  const NsccConfig* c_ = nullptr;
  double cwnd_ = 0, frame_ = 0, max_ = 0;
  Time last_decrease_ = Time(-1);
  std::uint64_t decreases_ = 0;
};

}  // namespace iowall::net
