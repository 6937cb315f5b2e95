// `iowall net headroom|skid|spread|incast|multipath`: PFC headroom from the 802.1Qbb
// delay terms, the simulated skid after XOFF, congestion spreading to an innocent flow,
// an incast of DCQCN senders, and ECMP against packet spraying on a leaf-spine fabric. Fabric parameters are set with --param key=value (units
// in the value, as in JSON) and read with their sources.
#include <cstdlib>

#include <fmt/format.h>

#include "models/net/experiments.hpp"
#include "models/net/length.hpp"
#include "models/net/multipath.hpp"
#include "sim/cli/command.hpp"
#include "sim/config/json_limits.hpp"
#include "sim/cli/output.hpp"
#include "sim/core/error.hpp"
#include "sim/cli/option_values.hpp"

namespace iowall {
namespace {

using namespace net;

struct Common {
  std::string rate = "100 Gb/s", cable = "2 m", duration = "20 ms", from = "10 ms";
  std::vector<std::string> params;
  std::uint64_t seed = 1;
  OutputOptions out;
  void add_to(CLI::App& c) {
    c.add_option("--rate", rate, "link rate (e.g. \"100 Gb/s\")");
    c.add_option("--cable", cable, "cable length of every link (e.g. \"100 m\")");
    c.add_option("--duration", duration, "simulated time");
    c.add_option("--from", from, "start of the measurement window");
    c.add_option("--param", params, "fabric parameter key=value, e.g. xoff=\"512 KB\" or dcqcn=false");
    add_seed_option(c, seed, "random seed (ECN marking)");
    out.add_to(c, false);
  }
  Bandwidth bw(const std::string& text, const char* option) const {
    Bandwidth b;
    const ParseResult r = parse_bandwidth(text, b);
    if (!r.ok) throw InputError("", option, r.error);
    if (b.bps <= 0) throw InputError("", option, "must be positive");
    return b;
  }
  Time time(const std::string& text, const char* option) const {
    Time t;
    const ParseResult r = parse_time(text, t);
    if (!r.ok) throw InputError("", option, r.error);
    if (t.ps < 0) throw InputError("", option, "must not be negative");
    return t;
  }
  // Simulated time of a per-packet run: every frame is an event, so a second at 100 Gb/s
  // is millions of them; more than a second is refused rather than left to run for hours.
  Time span(const std::string& text, const char* option) const {
    const Time t = time(text, option);
    if (t.ps <= 0) throw InputError("", option, "must be positive");
    if (t > sec(1)) throw InputError("", option, fmt::format("{} is more than the 1 s a per-packet run may simulate", quote_text(text, 40)));
    return t;
  }
  double meters() const {
    double m = 0;
    if (!parse_length(cable, m))
      throw InputError("", "--cable", fmt::format("\"{}\" is not a length (expected e.g. \"100 m\")", cable));
    return m;
  }
  FabricConfig config(const std::string& where) const {
    Json j = Json::object();
    for (const std::string& kv : params) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw InputError("", "--param", fmt::format("\"{}\" is not key=value", quote_text(kv, 60)));
      const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
      char* end = nullptr;
      const double num = std::strtod(v.c_str(), &end);
      if (v == "true" || v == "false")
        j[k] = v == "true";
      else if (!v.empty() && end && *end == '\0')
        j[k] = v.find_first_of(".eE") == std::string::npos ? Json(static_cast<i64>(num)) : Json(num);
      else
        j[k] = v;
    }
    const Bandwidth link = bw(rate, "--rate");
    FabricConfig c = read_as_options(
        [&] {
          Params p(j, {where, ""});
          FabricConfig read = read_fabric_config(p, link);
          p.check_all_used({});
          return read;
        },
        "", {}, "--param");
    check_fabric(c, bw(rate, "--rate"), meters(), where);
    return c;
  }
};

double kb(Bytes b) { return static_cast<double>(b.n) / 1e3; }

void run_headroom(const Common& a, const std::string& mtu_text) {
  Bytes mtu;
  if (const ParseResult r = parse_bytes(mtu_text, mtu); !r.ok) throw InputError("", "--mtu", r.error);
  if (mtu.n < 64 || mtu.n > 65536) throw InputError("", "--mtu", fmt::format("{} is not an MTU (64 B to 64 KiB)", quote_text(mtu_text, 40)));
  const FabricConfig c = a.config("iowall net headroom");
  const Bandwidth rate = a.bw(a.rate, "--rate");
  const Headroom h = pfc_headroom(c.pfc, rate, Bytes(mtu.n + kWireOverhead), a.meters());
  const Json j = {{"rate", to_string(rate)}, {"cable_m", a.meters()}, {"max_frame_bits", (mtu.n + kWireOverhead) * 8},
                  {"wait_frame_ns", h.wait_frame.ns()}, {"pause_frame_ns", h.pause_frame.ns()},
                  {"cable_round_trip_ns", h.cable_round_trip.ns()}, {"interface_ns", h.interface.ns()},
                  {"response_ns", h.response.ns()}, {"finish_frame_ns", h.finish_frame.ns()},
                  {"total_ns", h.total().ns()}, {"headroom_bytes", h.bytes(rate).n}};
  emit(a.out,
       [&] {
         return fmt::format(
             "PFC headroom at {} over {} m, max frame {} B on the wire:\n"
             "  wait for frame in service {:.1f} ns + PAUSE {:.1f} ns + cable round trip {:.1f} ns\n"
             "  + interface {:.1f} ns + response {:.1f} ns + sender finishes its frame {:.1f} ns\n"
             "  = {:.1f} ns -> {} B ({:.1f} KB) above XOFF\n",
             to_string(rate), a.meters(), mtu.n + kWireOverhead, h.wait_frame.ns(), h.pause_frame.ns(),
             h.cable_round_trip.ns(), h.interface.ns(), h.response.ns(), h.finish_frame.ns(), h.total().ns(),
             h.bytes(rate).n, kb(h.bytes(rate)));
       },
       j);
}

void run_skid_cmd(const Common& a, int drain) {
  const FabricConfig c = a.config("iowall net skid");
  SimContext ctx(a.seed);
  const SkidResult r = run_skid(ctx, c, a.bw(a.rate, "--rate"), a.meters(), a.span(a.duration, "--duration"), drain);
  const Json j = {{"headroom_bytes", r.headroom.n}, {"max_skid_bytes", r.max_skid.n}, {"pauses", r.pauses},
                  {"drops", r.drops}, {"frame_bytes", c.frame.n}};
  emit(a.out,
       [&] {
         return fmt::format("{} PAUSE episodes: most bytes after XOFF {} B; headroom formula {} B ({:.1f}%); drops {}\n",
                            r.pauses, r.max_skid.n, r.headroom.n,
                            100.0 * static_cast<double>(r.max_skid.n) / static_cast<double>(r.headroom.n), r.drops);
       },
       j);
}

void run_spread_cmd(const Common& a, const std::string& uplink, const std::string& slow) {
  const FabricConfig c = a.config("iowall net spread");
  SimContext ctx(a.seed);
  const SpreadResult r = run_spread(ctx, c, a.bw(a.rate, "--rate"), a.bw(uplink, "--uplink"), a.bw(slow, "--slow"),
                                    a.meters(), a.span(a.duration, "--duration"), a.time(a.from, "--from"));
  const char* fc = c.pfc.credit ? "credits" : c.pfc.enabled ? "PFC" : "none";
  const Json j = {{"flow_control", fc}, {"dcqcn", c.dcqcn.enabled}, {"max_held_bytes", r.max_held.n}, {"culprit_Gbps", r.culprit_Gbps},
                  {"innocent_Gbps", r.innocent_Gbps}, {"innocent_alone_Gbps", r.innocent_alone_Gbps},
                  {"innocent_paused_us", r.innocent_paused.us()}, {"pauses_upstream", r.pauses_upstream},
                  {"drops", r.drops}};
  emit(a.out,
       [&] {
         return fmt::format("flow control {}, DCQCN {}: culprit {:.2f} Gb/s into the {} receiver; innocent {:.2f} Gb/s "
                            "(alone {:.2f}); innocent NIC paused {:.1f} us; {} PAUSEs upstream; {} drops; "
                            "most held per ingress {} B\n",
                            fc, c.dcqcn.enabled ? "on" : "off", r.culprit_Gbps, slow, r.innocent_Gbps,
                            r.innocent_alone_Gbps, r.innocent_paused.us(), r.pauses_upstream, r.drops, r.max_held.n);
       },
       j);
}

void run_incast_cmd(const Common& a, int senders, const std::string& window, double tolerance) {
  const FabricConfig c = a.config("iowall net incast");
  SimContext ctx(a.seed);
  const Time duration = a.span(a.duration, "--duration"), from = a.time(a.from, "--from");
  if (from >= duration) throw InputError("", "--from", "the window must start before the run ends");
  const IncastResult r = run_incast(ctx, c, senders, a.bw(a.rate, "--rate"), a.meters(), duration, from, tolerance,
                                    a.time(window, "--window"));
  // A static-threshold shared buffer is lossless only if every ingress can reach XOFF
  // and then absorb its headroom at once.
  const Bytes headroom =
      pfc_headroom(c.pfc, a.bw(a.rate, "--rate"), Bytes(c.frame.n + kWireOverhead), a.meters()).bytes(a.bw(a.rate, "--rate"));
  const Bytes reserve = (c.pfc.xoff + headroom) * senders;
  const bool guaranteed = c.pfc.credit || (c.pfc.enabled && reserve <= c.buffer);
  const Json j = {{"senders", senders}, {"flow_Gbps", r.flow_Gbps}, {"lossless_guaranteed", guaranteed},
                  {"pfc_reserve_bytes", reserve.n}, {"buffer_bytes", c.buffer.n}, {"total_Gbps", r.total_Gbps}, {"jain", r.jain},
                  {"converged_ms", r.converged.ms()}, {"mean_queue_KB", r.mean_queue / 1e3},
                  {"min_queue_KB", kb(r.min_queue)}, {"max_queue_KB", kb(r.max_queue)},
                  {"kmin_KB", kb(c.ecn.kmin)}, {"kmax_KB", kb(c.ecn.kmax)}, {"pauses", r.pauses},
                  {"drops", r.drops}, {"cnps", r.cnps}};
  emit(a.out,
       [&] {
         const std::string conv = r.converged >= duration
                                      ? std::string("never, up to the end of the run")
                                      : fmt::format("from {:.1f} ms", r.converged.ms());
         std::string s = fmt::format("{} senders: {:.2f} Gb/s in all, Jain {:.4f}; every {} window within {:.0f}% of "
                                     "an equal split: {}\n",
                                     senders, r.total_Gbps, r.jain, window, 100 * tolerance, conv);
         s += fmt::format("bottleneck queue: mean {:.1f} KB, min {:.1f} KB, max {:.1f} KB (Kmin {:.0f}, Kmax {:.0f}); "
                          "{} CNPs, {} PAUSEs, {} drops\nper flow Gb/s:",
                          r.mean_queue / 1e3, kb(r.min_queue), kb(r.max_queue), kb(c.ecn.kmin), kb(c.ecn.kmax),
                          r.cnps, r.pauses, r.drops);
         for (double g : r.flow_Gbps) s += fmt::format(" {:.2f}", g);
         s += "\n";
         if (c.pfc.enabled && !guaranteed)
           s += fmt::format("not lossless by construction: {} ingresses x (xoff + headroom {}) = {} > buffer {}\n",
                            senders, to_string(headroom), to_string(reserve), to_string(c.buffer));
         return s;
       },
       j);
}

struct MultipathArgs {
  int senders = 4, spines = 4;
  std::string uplink = "100 Gb/s", pattern = "permutation", mode = "ecmp";
};

void run_multipath_cmd(const Common& a, const MultipathArgs& m) {
  const FabricConfig c = a.config("iowall net multipath");
  MultipathRun run;
  run.senders = m.senders;
  run.spines = m.spines;
  run.host_rate = a.bw(a.rate, "--rate");
  run.uplink = a.bw(m.uplink, "--uplink");
  run.cable_m = a.meters();
  run.pattern = m.pattern == "incast" ? Pattern::incast : Pattern::permutation;
  run.mode = m.mode == "spray" ? Multipath::spray : Multipath::ecmp;
  run.duration = a.span(a.duration, "--duration");
  run.measure_from = a.time(a.from, "--from");
  SimContext ctx(a.seed);
  const MultipathResult r = run_multipath(ctx, c, run);
  const Json j = {{"mode", m.mode}, {"pattern", m.pattern}, {"senders", m.senders}, {"spines", m.spines},
                  {"flow_Gbps", r.flow_Gbps}, {"total_Gbps", r.total_Gbps}, {"min_Gbps", r.min_Gbps},
                  {"spine_flows", r.spine_flows}, {"out_of_order", r.out_of_order},
                  {"max_reorder_bytes", r.max_reorder.n}, {"pauses", r.pauses}, {"drops", r.drops}};
  emit(a.out,
       [&] {
         std::string s = fmt::format("{} {} of {} senders over {} spines: {:.2f} Gb/s in all, slowest flow {:.2f}; "
                                     "{} packets out of order, reorder buffer up to {} B; {} PAUSEs, {} drops\n",
                                     m.mode, m.pattern, m.senders, m.spines, r.total_Gbps, r.min_Gbps,
                                     r.out_of_order, r.max_reorder.n, r.pauses, r.drops);
         if (run.mode == Multipath::ecmp) {
           s += "flows per spine:";
           for (int n : r.spine_flows) s += fmt::format(" {}", n);
           s += "\n";
         }
         return s;
       },
       j);
}

void setup(CLI::App& root, CliState&) {
  CLI::App* net = root.add_subcommand("net", "fabric experiments: PFC headroom and skid, spreading, DCQCN incast");
  net->require_subcommand(1);

  auto h = std::make_shared<Common>();
  auto mtu = std::make_shared<std::string>("9216 B");
  CLI::App* head = net->add_subcommand("headroom", "PFC headroom from the 802.1Qbb delay terms");
  h->add_to(*head);
  head->add_option("--mtu", *mtu, "largest frame (e.g. \"9216 B\")");
  head->callback([h, mtu] { run_headroom(*h, *mtu); });

  auto s = std::make_shared<Common>();
  auto drain = std::make_shared<int>(4);
  CLI::App* skid = net->add_subcommand("skid", "simulated bytes after XOFF vs the headroom formula");
  s->add_to(*skid);
  skid->add_option("--drain", *drain, "egress is this many times slower than the sender")->check(CLI::Range(2, 1000));
  skid->callback([s, drain] { run_skid_cmd(*s, *drain); });

  auto p = std::make_shared<Common>();
  auto up = std::make_shared<std::string>("400 Gb/s");
  auto slow = std::make_shared<std::string>("10 Gb/s");
  CLI::App* spread = net->add_subcommand("spread", "PAUSE spreading upstream to a flow that shares no bottleneck");
  p->add_to(*spread);
  spread->add_option("--uplink", *up, "switch-to-switch link rate");
  spread->add_option("--slow", *slow, "the slow receiver's link rate");
  spread->callback([p, up, slow] { run_spread_cmd(*p, *up, *slow); });

  auto i = std::make_shared<Common>();
  auto n = std::make_shared<int>(8);
  auto window = std::make_shared<std::string>("10 ms");
  auto tol = std::make_shared<double>(0.25);
  CLI::App* incast = net->add_subcommand("incast", "N DCQCN senders into one receiver through one switch");
  i->add_to(*incast);
  incast->add_option("--senders", *n, "senders")->check(CLI::Range(1, 4096));
  incast->add_option("--window", *window, "window for the convergence test");
  incast->add_option("--tolerance", *tol, "relative distance from an equal split")->check(finite_number())->check(CLI::Range(0.0, 1.0));
  incast->callback([i, n, window, tol] { run_incast_cmd(*i, *n, *window, *tol); });

  auto mc = std::make_shared<Common>();
  auto ma = std::make_shared<MultipathArgs>();
  CLI::App* mp = net->add_subcommand("multipath", "ECMP flow hashing (RoCEv2) vs packet spraying (Ultra Ethernet)");
  mc->add_to(*mp);
  mp->add_option("--senders", ma->senders, "senders on one leaf")->check(CLI::Range(1, 1024));
  mp->add_option("--spines", ma->spines, "spine switches")->check(CLI::Range(1, 64));
  mp->add_option("--uplink", ma->uplink, "leaf-spine link rate");
  mp->add_option("--pattern", ma->pattern, "permutation or incast")->check(CLI::IsMember({"permutation", "incast"}));
  mp->add_option("--mode", ma->mode, "ecmp or spray")->check(CLI::IsMember({"ecmp", "spray"}));
  mp->callback([mc, ma] { run_multipath_cmd(*mc, *ma); });
}

}  // namespace

IOWALL_REGISTER_COMMAND(38, setup);

}  // namespace iowall
