#include "models/net/experiments.hpp"

#include <algorithm>
#include <cmath>

namespace iowall::net {

FabricConfig read_fabric_config(const Params& p, Bandwidth line) {
  FabricConfig c;
  c.buffer = p.get_bytes("buffer", "16 MB", "shared packet buffer per switch", "Broadcom Tomahawk 2: 16 MB");
  c.frame = p.get_bytes("frame", "4096 B", "data frame size", "common RoCE MTU setting");
  c.pfc = PfcConfig::read(p);
  c.ecn = EcnConfig::read(p);
  c.dcqcn = DcqcnConfig::read(p, line);
  c.nscc = NsccConfig::read(p);
  if (c.nscc.enabled) c.dcqcn.enabled = false;  // one congestion control per sender
  if (!c.frame.is_positive() || c.frame > Bytes(9216)) p.fail("frame", "the frame must be 1 to 9216 B (jumbo MTU)");
  if (!c.buffer.is_positive()) p.fail("buffer", "the buffer must be positive");
  return c;
}

double jain_index(const std::vector<double>& x) {
  double s = 0, s2 = 0;
  for (double v : x) {
    s += v;
    s2 += v * v;
  }
  return s2 > 0 ? s * s / (static_cast<double>(x.size()) * s2) : 0;
}

void check_fabric(const FabricConfig& c, Bandwidth rate, double cable_m, const std::string& where) {
  if (c.pfc.credit && c.pfc.credits > c.buffer)
    throw InputError(where, "/credits", "the credits of one ingress exceed the buffer size");
  const Headroom h = pfc_headroom(c.pfc, rate, c.frame + kWireOverhead, cable_m);
  check_pfc(c.pfc, c.buffer, h.bytes(rate), where);
}

SkidResult run_skid(SimContext& ctx, const FabricConfig& cfg, Bandwidth rate, double cable_m, Time duration,
                    int drain) {
  FabricConfig c = cfg;
  c.dcqcn.enabled = false;
  c.ecn.enabled = false;
  Fabric f(ctx, "skid", c);
  const int up = f.add_host("up"), sw = f.add_switch("sw"), down = f.add_host("down"), rev = f.add_host("rev");
  const int in = f.connect(up, sw, rate, cable_m) + 1;  // the switch's port facing the sender
  f.connect(sw, down, scale(rate, 1, drain), cable_m);
  f.connect(rev, sw, rate, cable_m);
  f.add_flow({up, sw, down}, Bytes(0), Time(0));
  // Frames on the way back to the sender; its start is offset by a random phase.
  f.add_flow({rev, sw, up}, Bytes(0), Time(static_cast<i64>(f.rng().below(1'000'000))));
  ctx.run(duration);
  SkidResult r;
  r.formula = pfc_headroom(c.pfc, rate, c.frame + kWireOverhead, cable_m);
  r.headroom = r.formula.bytes(rate);
  r.max_skid = f.port(in).max_skid;
  r.pauses = f.port(in).pauses_sent;
  r.drops = f.drops();
  return r;
}

SpreadResult run_spread(SimContext& ctx, const FabricConfig& cfg, Bandwidth rate, Bandwidth uplink, Bandwidth slow,
                        double cable_m, Time duration, Time measure_from) {
  Fabric f(ctx, "spread", cfg);
  const int h1 = f.add_host("culprit"), h2 = f.add_host("innocent"), s1 = f.add_switch("s1"),
            s2 = f.add_switch("s2"), r1 = f.add_host("slow_rx"), r2 = f.add_host("rx");
  const int h1p = f.connect(h1, s1, rate, cable_m);
  const int h2p = f.connect(h2, s1, rate, cable_m);
  const int s1up = f.connect(s1, s2, uplink, cable_m);
  f.connect(s2, r1, slow, cable_m);
  f.connect(s2, r2, rate, cable_m);
  const int culprit = f.add_flow({h1, s1, s2, r1}, Bytes(0), Time(0));
  const int innocent = f.add_flow({h2, s1, s2, r2}, Bytes(0), Time(0));
  ctx.run(duration);
  SpreadResult r;
  auto window = [&](int fl) {
    return gbit_per_s(f.delivered_before(fl, duration) - f.delivered_before(fl, measure_from), duration - measure_from);
  };
  r.culprit_Gbps = window(culprit);
  r.innocent_Gbps = window(innocent);
  // (rate * frame) / wire bytes in double, in this order.
  r.innocent_alone_Gbps = rate.Gbps_value() * cfg.frame.bytes_value() / (cfg.frame + kWireOverhead).bytes_value();
  r.innocent_paused = f.port(h2p).paused_time;
  for (int p : {h1p + 1, h2p + 1, s1up + 1}) r.max_held = std::max(r.max_held, f.port(p).max_held);
  r.pauses_upstream = f.port(s1up).pauses_received + f.port(h1p).pauses_received + f.port(h2p).pauses_received;
  r.drops = f.drops();
  return r;
}

IncastResult run_incast(SimContext& ctx, const FabricConfig& cfg, int senders, Bandwidth rate, double cable_m,
                        Time duration, Time measure_from, double tolerance, Time step) {
  Fabric f(ctx, "incast", cfg);
  const int sw = f.add_switch("sw"), rx = f.add_host("rx");
  std::vector<int> hosts, flows;
  for (int i = 0; i < senders; ++i) {
    hosts.push_back(f.add_host("tx" + std::to_string(i)));
    f.connect(hosts.back(), sw, rate, cable_m);
  }
  const int bottleneck = f.connect(sw, rx, rate, cable_m);
  for (int i = 0; i < senders; ++i) flows.push_back(f.add_flow({hosts[i], sw, rx}, Bytes(0), Time(0)));
  f.watch_queue(bottleneck, measure_from);
  ctx.run(duration);
  IncastResult r;
  const Time window = duration - measure_from;
  for (int fl : flows) {
    const Bytes b = f.delivered_before(fl, duration) - f.delivered_before(fl, measure_from);
    r.flow_Gbps.push_back(gbit_per_s(b, window));
    r.total_Gbps += r.flow_Gbps.back();
    r.cnps += f.flow(fl).cnps;
  }
  r.jain = jain_index(r.flow_Gbps);
  r.mean_queue = f.mean_watched_queue(duration);
  r.min_queue = f.min_watched_queue();
  r.max_queue = f.max_watched_queue();
  r.pauses = 0;
  for (int i = 0; i < senders; ++i) r.pauses += f.port(f.port_between(sw, hosts[i])).pauses_sent;
  r.drops = f.drops();
  // Convergence: the end of the last window in which some flow was off its fair
  // share by more than `tolerance` (relative).
  // The fair share of a window is an equal split of what the flows got through it.
  r.converged = Time(0);
  for (Time t = Time(0); t + step <= duration; t += step) {
    std::vector<double> g;
    double fair = 0;
    for (int fl : flows) {
      g.push_back(gbit_per_s(f.delivered_before(fl, t + step) - f.delivered_before(fl, t), step));
      fair += g.back() / senders;
    }
    bool ok = fair > 0;
    for (double x : g) ok = ok && std::abs(x - fair) <= tolerance * fair;
    if (!ok) r.converged = t + step;
  }
  return r;
}

}  // namespace iowall::net
