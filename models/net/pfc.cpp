#include "models/net/pfc.hpp"

#include <fmt/format.h>

namespace iowall::net {

PfcConfig PfcConfig::read(const Params& p) {
  PfcConfig c;
  c.enabled = p.get_bool("pfc", true, "lossless priority: PAUSE instead of dropping", "IEEE 802.1Qbb");
  c.credit = p.get_bool("credit", false, "credit-based flow control per hop instead of PFC",
                        "InfiniBand Architecture Specification, link-level flow control");
  c.credits = p.get_bytes("credits", "128 KiB", "receive buffer a switch ingress advertises per priority",
                          "assumption: a per-port, per-virtual-lane buffer share");
  if (c.credit) {
    if (p.json().contains("pfc") && c.enabled) p.fail("credit", "choose PFC or credits, not both");
    c.enabled = false;
    if (!c.credits.is_positive()) p.fail("credits", "credits must be positive");
  }
  c.xoff = p.get_bytes("xoff", "1 MB", "ingress bytes of one priority that send PAUSE",
                       "assumption: a static threshold above an ingress's share of kmax, so ECN acts first");
  c.xon = p.get_bytes("xon", "512 KB", "ingress bytes that release PAUSE; 0: only an empty ingress does", "assumption: half of xoff");
  c.interface_bits = p.get_int("interface_delay_bits", 122880, 0, i64{1} << 40,
                               "PHY/MAC delay of the pause loop, in bit times", "IEEE 802.1Qbb-derived, 100GbE");
  c.response_bits = p.get_int("response_bits", 201728, 0, i64{1} << 40,
                              "receiver response to a PAUSE, in bit times", "IEEE 802.1Qbb-derived, 100GbE");
  c.pause_frame_bits = p.get_int("pause_frame_bits", 672, 0, i64{1} << 20,
                                 "PAUSE frame with preamble and gap, in bit times", "IEEE 802.1Qbb (64 B + 20 B)");
  c.cable_per_meter = p.get_time("cable_delay", "5 ns", "propagation per metre of cable",
                                 "about 5 ns/m in fibre and copper");
  if (c.xon > c.xoff) p.fail("xon", "xon must not exceed xoff");
  if (!c.xoff.is_positive()) p.fail("xoff", "xoff must be positive");
  return c;
}

Headroom pfc_headroom(const PfcConfig& c, Bandwidth rate, Bytes max_frame, double cable_m) {
  Headroom h;
  h.wait_frame = transfer_time(max_frame, rate);
  h.pause_frame = bit_time(c.pause_frame_bits, rate);
  h.cable_round_trip = scale(c.cable_per_meter, 2 * cable_m);
  h.interface = bit_time(c.interface_bits, rate);
  h.response = bit_time(c.response_bits, rate);
  h.finish_frame = h.wait_frame;
  return h;
}

void check_pfc(const PfcConfig& c, Bytes buffer, Bytes headroom, const std::string& where) {
  if (!c.enabled) return;
  if (c.xoff > buffer)
    throw InputError(where, "/xoff",
                     fmt::format("the PFC threshold {} is above the buffer size {}", to_string(c.xoff), to_string(buffer)));
  if (c.xoff + headroom > buffer)
    throw InputError(where, "/xoff",
                     fmt::format("xoff {} plus the headroom {} exceeds the buffer {}: PAUSE would come too late",
                                 to_string(c.xoff), to_string(headroom), to_string(buffer)));
}

}  // namespace iowall::net
