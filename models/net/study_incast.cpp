// Congestion-control studies: N senders into one receiver through one switch (DCQCN,
// or NSCC with nscc=true), and ECMP flow hashing against packet spraying on a
// two-leaf, S-spine fabric.
#include <fmt/format.h>

#include "models/net/studies.hpp"

namespace iowall::net {

IncastStudy::Config IncastStudy::read_config(const Params& p) {
  Config c;
  c.setup = FabricSetup::read(p);
  c.span = RunSpan::read(p, true);
  c.senders = static_cast<int>(p.get_int("senders", 8, 1, 4096, "senders, one link each into the switch",
                                         "assumption: an 8:1 incast, as in the DCQCN paper's experiments"));
  c.window = p.get_time("window", "10 ms", "window of the convergence test",
                        "assumption: many DCQCN increase periods (300 us)");
  if (!c.window.is_positive()) p.fail("window", "must be positive");
  const auto it = p.json().find("window");
  c.window_text = it != p.json().end() && it->is_string() ? it->get<std::string>() : "10 ms";
  c.tolerance = p.get_number("tolerance", 0.25, 0.0, 1.0, "relative distance from an equal split that counts as fair",
                             "assumption");
  return c;
}

IncastStudy::Result IncastStudy::run(const Config& c, const StudyEnv& env) {
  const FabricSetup& s = c.setup;
  SimContext ctx(env.seed);
  Result r;
  r.config = c;
  r.incast = run_incast(ctx, s.fabric, c.senders, s.rate, s.cable_m, c.span.duration, c.span.from, c.tolerance, c.window);
  // A static-threshold shared buffer is lossless only if every ingress can reach XOFF
  // and then absorb its headroom at once.
  r.headroom = pfc_headroom(s.fabric.pfc, s.rate, s.fabric.frame + kWireOverhead, s.cable_m).bytes(s.rate);
  r.reserve = (s.fabric.pfc.xoff + r.headroom) * c.senders;
  r.guaranteed = s.fabric.pfc.credit || (s.fabric.pfc.enabled && r.reserve <= s.fabric.buffer);
  return r;
}

Json IncastStudy::Result::to_json() const {
  const IncastResult& r = incast;
  const FabricConfig& c = config.setup.fabric;
  // Sizes go out as byte counts or decimal KB.
  return {{"senders", config.senders}, {"flow_Gbps", r.flow_Gbps}, {"lossless_guaranteed", guaranteed},
          {"pfc_reserve_bytes", reserve.count()}, {"buffer_bytes", c.buffer.count()}, {"total_Gbps", r.total_Gbps}, {"jain", r.jain},
          {"converged_ms", r.converged.ms()}, {"mean_queue_KB", r.mean_queue / 1e3},
          {"min_queue_KB", r.min_queue.kB()}, {"max_queue_KB", r.max_queue.kB()},
          {"kmin_KB", c.ecn.kmin.kB()}, {"kmax_KB", c.ecn.kmax.kB()}, {"pauses", r.pauses},
          {"drops", r.drops}, {"cnps", r.cnps}};
}

std::string IncastStudy::Result::to_text() const {
  const IncastResult& r = incast;
  const FabricConfig& c = config.setup.fabric;
  const std::string conv = r.converged >= config.span.duration ? std::string("never, up to the end of the run")
                                                               : fmt::format("from {:.1f} ms", r.converged.ms());
  std::string s = fmt::format("{} senders: {:.2f} Gb/s in all, Jain {:.4f}; every {} window within {:.0f}% of "
                              "an equal split: {}\n",
                              config.senders, r.total_Gbps, r.jain, config.window_text, 100 * config.tolerance, conv);
  s += fmt::format("bottleneck queue: mean {:.1f} KB, min {:.1f} KB, max {:.1f} KB (Kmin {:.0f}, Kmax {:.0f}); "
                   "{} CNPs, {} PAUSEs, {} drops\nper flow Gb/s:",
                   r.mean_queue / 1e3, r.min_queue.kB(), r.max_queue.kB(), c.ecn.kmin.kB(), c.ecn.kmax.kB(), r.cnps,
                   r.pauses, r.drops);
  for (double g : r.flow_Gbps) s += fmt::format(" {:.2f}", g);
  s += "\n";
  if (c.pfc.enabled && !guaranteed)
    s += fmt::format("not lossless by construction: {} ingresses x (xoff + headroom {}) = {} > buffer {}\n",
                     config.senders, to_string(headroom), to_string(reserve), to_string(c.buffer));
  return s;
}

IOWALL_REGISTER_STUDY(IncastStudy, "net_incast", "N DCQCN (or NSCC) senders into one receiver through one switch");

MultipathStudy::Config MultipathStudy::read_config(const Params& p) {
  Config c;
  c.setup = FabricSetup::read(p);
  const RunSpan span = RunSpan::read(p, true);
  MultipathRun& m = c.run;
  m.senders = static_cast<int>(p.get_int("senders", 4, 1, 1024, "senders on one leaf", "assumption"));
  m.spines = static_cast<int>(p.get_int("spines", 4, 1, 64, "spine switches", "assumption: a 4-spine pod"));
  m.uplink = p.get_bandwidth("uplink", "100 Gb/s", "leaf-spine link rate", "assumption: as fast as a host link");
  c.pattern = p.get_choice("pattern", "permutation", {"permutation", "incast"},
                           "sender i to receiver i, or every sender to one receiver", "assumption");
  c.mode = p.get_choice("mode", "ecmp", {"ecmp", "spray"},
                        "ECMP flow hashing (RoCEv2) or packet spraying (Ultra Ethernet)",
                        "RoCEv2 ECMP; UEC 1.0 packet spraying");
  m.host_rate = c.setup.rate;
  m.cable_m = c.setup.cable_m;
  m.pattern = c.pattern == "incast" ? Pattern::incast : Pattern::permutation;
  m.mode = c.mode == "spray" ? Multipath::spray : Multipath::ecmp;
  m.duration = span.duration;
  m.measure_from = span.from;
  return c;
}

MultipathStudy::Result MultipathStudy::run(const Config& c, const StudyEnv& env) {
  SimContext ctx(env.seed);
  Result r;
  r.config = c;
  r.multipath = run_multipath(ctx, c.setup.fabric, c.run);
  return r;
}

Json MultipathStudy::Result::to_json() const {
  const MultipathResult& r = multipath;
  // The reorder buffer goes out as a byte count.
  return {{"mode", config.mode}, {"pattern", config.pattern}, {"senders", config.run.senders},
          {"spines", config.run.spines}, {"flow_Gbps", r.flow_Gbps}, {"total_Gbps", r.total_Gbps},
          {"min_Gbps", r.min_Gbps}, {"spine_flows", r.spine_flows}, {"out_of_order", r.out_of_order},
          {"max_reorder_bytes", r.max_reorder.count()}, {"pauses", r.pauses}, {"drops", r.drops}};
}

std::string MultipathStudy::Result::to_text() const {
  const MultipathResult& r = multipath;
  std::string s = fmt::format("{} {} of {} senders over {} spines: {:.2f} Gb/s in all, slowest flow {:.2f}; "
                              "{} packets out of order, reorder buffer up to {} B; {} PAUSEs, {} drops\n",
                              config.mode, config.pattern, config.run.senders, config.run.spines, r.total_Gbps,
                              r.min_Gbps, r.out_of_order, r.max_reorder.count(), r.pauses, r.drops);
  if (config.run.mode == Multipath::ecmp) {
    s += "flows per spine:";
    for (int n : r.spine_flows) s += fmt::format(" {}", n);
    s += "\n";
  }
  return s;
}

IOWALL_REGISTER_STUDY(MultipathStudy, "net_multipath", "ECMP flow hashing (RoCEv2) against packet spraying (Ultra Ethernet)");

}  // namespace iowall::net
