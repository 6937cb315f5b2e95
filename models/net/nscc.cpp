#include "models/net/nscc.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace iowall::net {

NsccConfig NsccConfig::read(const Params& p) {
  NsccConfig c;
  c.enabled = p.get_bool("nscc", false,
                         "Ultra Ethernet NSCC window control (ECN + delay) at the senders instead of DCQCN",
                         "UEC 1.0 specification, congestion management (NSCC), simplified");
  c.target_delay = p.get_time("nscc_target_delay", "8 us", "round-trip delay NSCC's window aims for",
                              "assumption: base RTT of a 2-hop 100G fabric plus about 90 KB of queue");
  c.md = p.get_number("nscc_md", 0.5, 0.0, 1.0, "multiplicative decrease gain on (delay - target) / delay",
                      "assumption, in the range of UEC's published defaults");
  c.pi_gain = p.get_number("nscc_pi_gain", 0.25, 0.0, 1e6, "proportional increase, frames per ACK at zero delay",
                           "assumption");
  if (!c.target_delay.is_positive()) p.fail("nscc_target_delay", "must be positive");
  if (!(c.md > 0 && c.md <= 1)) p.fail("nscc_md", fmt::format("{} is out of range (0, 1]", c.md));
  if (!(c.pi_gain >= 0 && c.pi_gain <= 16)) p.fail("nscc_pi_gain", fmt::format("{} is out of range [0, 16]", c.pi_gain));
  return c;
}

NsccWindow::NsccWindow(const NsccConfig& c, Bandwidth line, Bytes frame)
    : c_(&c), frame_(frame.bytes_value()) {  // the window's arithmetic is in double bytes
  // Start at one bandwidth-delay product of the target; never above four of them.
  const double bdp = line.bytes_per_s_value() * c.target_delay.seconds();
  cwnd_ = std::max(bdp, frame_);
  max_ = 4 * cwnd_;
}

void NsccWindow::on_ack(Bytes bytes, bool marked, Time rtt, Time now) {
  // The window's arithmetic is in double bytes and picoseconds.
  const double target = c_->target_delay.ps_value(), delay = rtt.ps_value();
  const double acked = bytes.bytes_value();
  if (marked && delay > target) {
    // At most one decrease per round trip: the marks of one window describe one queue.
    if (last_decrease_.is_negative() || now - last_decrease_ >= rtt) {
      cwnd_ -= cwnd_ * c_->md * (delay - target) / delay;
      last_decrease_ = now;
      ++decreases_;
    }
  } else if (!marked && delay <= target) {
    cwnd_ += c_->pi_gain * frame_ * (target - delay) / target * acked / frame_;
  } else if (!marked) {
    cwnd_ += frame_ * acked / cwnd_;  // one frame per window
  }
  cwnd_ = std::clamp(cwnd_, frame_, max_);
}

}  // namespace iowall::net
