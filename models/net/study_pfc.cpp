// PFC studies: the headroom above XOFF from the 802.1Qbb delay terms, the skid a
// simulated sender really puts there, and PAUSE spreading upstream to an innocent flow;
// with the parameters every fabric study shares.
#include <fmt/format.h>

#include "models/net/length.hpp"
#include "models/net/studies.hpp"
#include "sim/core/quote.hpp"

namespace iowall::net {

namespace {
// The text given for `key` (already checked by its getter), or the default.
std::string given(const Params& p, const std::string& key, const std::string& def) {
  const auto it = p.json().find(key);
  return it != p.json().end() && it->is_string() ? it->get<std::string>() : def;
}
}  // namespace

FabricSetup FabricSetup::read(const Params& p) {
  FabricSetup s;
  s.rate = p.get_bandwidth("rate", "100 Gb/s", "rate of every host link", "100GbE, the rate of figures.md's fabric rows");
  const std::string cable = p.get_text("cable", "2 m", "cable length of every link, in m or km",
                                       "assumption: in-rack cabling");
  if (!parse_length(cable, s.cable_m))
    p.fail("cable", fmt::format("\"{}\" is not a length (expected e.g. \"100 m\")", quote_text(cable, 40)));
  s.fabric = read_fabric_config(p, s.rate);
  check_fabric(s.fabric, s.rate, s.cable_m, p.where().file);
  return s;
}

namespace {
// Simulated time of a per-packet run: every frame is an event, so a second at 100 Gb/s
// is millions of them; more than a second is refused rather than left to run for hours.
Time read_duration(const Params& p) {
  const Time t = p.get_time("duration", "20 ms", "simulated time (at most 1 s: every frame is an event)",
                            "assumption: DCQCN converges within about 10 ms at 100 Gb/s");
  if (t.is_negative()) p.fail("duration", "must not be negative");
  if (t.is_zero()) p.fail("duration", "must be positive");
  if (t > sec(1))
    p.fail("duration", fmt::format("{} is more than the 1 s a per-packet run may simulate",
                                   quote_text(given(p, "duration", ""), 40)));
  return t;
}
}  // namespace

RunSpan RunSpan::read(const Params& p, bool window) {
  RunSpan s;
  s.duration = read_duration(p);
  s.from = p.get_time("from", "10 ms", "start of the measurement window",
                      "assumption: after the senders' first reactions");
  if (s.from.is_negative()) p.fail("from", "must not be negative");
  if (window && s.from >= s.duration) p.fail("from", "the window must start before the run ends");
  return s;
}

HeadroomStudy::Config HeadroomStudy::read_config(const Params& p) {
  Config c;
  c.setup = FabricSetup::read(p);
  c.mtu = p.get_bytes("mtu", "9216 B", "largest frame", "jumbo MTU of data-centre switches");
  if (c.mtu < Bytes(64) || c.mtu > Bytes(65536))
    p.fail("mtu", fmt::format("{} is not an MTU (64 B to 64 KiB)", quote_text(given(p, "mtu", ""), 40)));
  return c;
}

HeadroomStudy::Result HeadroomStudy::run(const Config& c, const StudyEnv&) {
  Result r;
  r.config = c;
  r.headroom = pfc_headroom(c.setup.fabric.pfc, c.setup.rate, c.mtu + kWireOverhead, c.setup.cable_m);
  return r;
}

Json HeadroomStudy::Result::to_json() const {
  const Headroom& h = headroom;
  const Bandwidth rate = config.setup.rate;
  // Sizes go out as counts of bits or bytes.
  return {{"rate", to_string(rate)}, {"cable_m", config.setup.cable_m}, {"max_frame_bits", (config.mtu + kWireOverhead).count() * 8},
          {"wait_frame_ns", h.wait_frame.ns()}, {"pause_frame_ns", h.pause_frame.ns()},
          {"cable_round_trip_ns", h.cable_round_trip.ns()}, {"interface_ns", h.interface.ns()},
          {"response_ns", h.response.ns()}, {"finish_frame_ns", h.finish_frame.ns()},
          {"total_ns", h.total().ns()}, {"headroom_bytes", h.bytes(rate).count()}};
}

std::string HeadroomStudy::Result::to_text() const {
  const Headroom& h = headroom;
  const Bandwidth rate = config.setup.rate;
  return fmt::format(
      "PFC headroom at {} over {} m, max frame {} B on the wire:\n"
      "  wait for frame in service {:.1f} ns + PAUSE {:.1f} ns + cable round trip {:.1f} ns\n"
      "  + interface {:.1f} ns + response {:.1f} ns + sender finishes its frame {:.1f} ns\n"
      "  = {:.1f} ns -> {} B ({:.1f} KB) above XOFF\n",
      to_string(rate), config.setup.cable_m, (config.mtu + kWireOverhead).count(), h.wait_frame.ns(), h.pause_frame.ns(),
      h.cable_round_trip.ns(), h.interface.ns(), h.response.ns(), h.finish_frame.ns(), h.total().ns(),
      h.bytes(rate).count(), h.bytes(rate).kB());
}

IOWALL_REGISTER_STUDY(HeadroomStudy, "net_headroom", "PFC headroom above XOFF from the 802.1Qbb delay terms");

SkidStudy::Config SkidStudy::read_config(const Params& p) {
  Config c;
  c.setup = FabricSetup::read(p);
  c.duration = read_duration(p);
  c.drain = static_cast<int>(p.get_int("drain", 4, 2, 1000, "the egress is this many times slower than the sender",
                                       "assumption: a congested egress, as in the headroom argument"));
  return c;
}

SkidStudy::Result SkidStudy::run(const Config& c, const StudyEnv& env) {
  SimContext ctx(env.seed);
  Result r;
  r.config = c;
  r.skid = run_skid(ctx, c.setup.fabric, c.setup.rate, c.setup.cable_m, c.duration, c.drain);
  return r;
}

Json SkidStudy::Result::to_json() const {
  // Sizes go out as byte counts.
  return {{"headroom_bytes", skid.headroom.count()}, {"max_skid_bytes", skid.max_skid.count()}, {"pauses", skid.pauses},
          {"drops", skid.drops}, {"frame_bytes", config.setup.fabric.frame.count()}};
}

std::string SkidStudy::Result::to_text() const {
  return fmt::format("{} PAUSE episodes: most bytes after XOFF {} B; headroom formula {} B ({:.1f}%); drops {}\n",
                     skid.pauses, skid.max_skid.count(), skid.headroom.count(),
                     100.0 * skid.max_skid.bytes_value() / skid.headroom.bytes_value(), skid.drops);
}

IOWALL_REGISTER_STUDY(SkidStudy, "net_skid", "simulated bytes after XOFF against the headroom formula");

SpreadStudy::Config SpreadStudy::read_config(const Params& p) {
  Config c;
  c.setup = FabricSetup::read(p);
  c.span = RunSpan::read(p, false);
  c.uplink = p.get_bandwidth("uplink", "400 Gb/s", "switch-to-switch link rate", "assumption: 4x the host links");
  c.slow = p.get_bandwidth("slow", "10 Gb/s", "the slow receiver's link rate", "assumption: a 10GbE receiver");
  c.slow_text = given(p, "slow", "10 Gb/s");
  return c;
}

SpreadStudy::Result SpreadStudy::run(const Config& c, const StudyEnv& env) {
  SimContext ctx(env.seed);
  Result r;
  r.config = c;
  r.spread = run_spread(ctx, c.setup.fabric, c.setup.rate, c.uplink, c.slow, c.setup.cable_m, c.span.duration,
                        c.span.from);
  return r;
}

namespace {
const char* flow_control(const FabricConfig& c) { return c.pfc.credit ? "credits" : c.pfc.enabled ? "PFC" : "none"; }
}  // namespace

Json SpreadStudy::Result::to_json() const {
  const SpreadResult& r = spread;
  const FabricConfig& c = config.setup.fabric;
  // The held bytes go out as a byte count.
  return {{"flow_control", flow_control(c)}, {"dcqcn", c.dcqcn.enabled}, {"max_held_bytes", r.max_held.count()},
          {"culprit_Gbps", r.culprit_Gbps}, {"innocent_Gbps", r.innocent_Gbps},
          {"innocent_alone_Gbps", r.innocent_alone_Gbps}, {"innocent_paused_us", r.innocent_paused.us()},
          {"pauses_upstream", r.pauses_upstream}, {"drops", r.drops}};
}

std::string SpreadStudy::Result::to_text() const {
  const SpreadResult& r = spread;
  const FabricConfig& c = config.setup.fabric;
  return fmt::format("flow control {}, DCQCN {}: culprit {:.2f} Gb/s into the {} receiver; innocent {:.2f} Gb/s "
                     "(alone {:.2f}); innocent NIC paused {:.1f} us; {} PAUSEs upstream; {} drops; "
                     "most held per ingress {} B\n",
                     flow_control(c), c.dcqcn.enabled ? "on" : "off", r.culprit_Gbps, config.slow_text, r.innocent_Gbps,
                     r.innocent_alone_Gbps, r.innocent_paused.us(), r.pauses_upstream, r.drops, r.max_held.count());
}

IOWALL_REGISTER_STUDY(SpreadStudy, "net_spread", "PAUSE spreading upstream to a flow that shares no bottleneck");

}  // namespace iowall::net
