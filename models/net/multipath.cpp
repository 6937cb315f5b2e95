#include "models/net/multipath.hpp"

#include <algorithm>

namespace iowall::net {

MultipathResult run_multipath(SimContext& ctx, const FabricConfig& cfg, const MultipathRun& run) {
  if (run.senders < 1 || run.spines < 1) throw InputError("", "", "senders and spines must be at least 1");
  if (run.measure_from >= run.duration) throw InputError("", "--from", "the window must start before the run ends");
  Fabric f(ctx, "leafspine", cfg);
  const int leaf_a = f.add_switch("leaf_a"), leaf_b = f.add_switch("leaf_b");
  std::vector<int> spines, tx, rx;
  for (int s = 0; s < run.spines; ++s) {
    spines.push_back(f.add_switch("spine" + std::to_string(s)));
    f.connect(leaf_a, spines.back(), run.uplink, run.cable_m);
    f.connect(spines.back(), leaf_b, run.uplink, run.cable_m);
  }
  const int receivers = run.pattern == Pattern::incast ? 1 : run.senders;
  for (int i = 0; i < run.senders; ++i) {
    tx.push_back(f.add_host("tx" + std::to_string(i)));
    f.connect(tx.back(), leaf_a, run.host_rate, run.cable_m);
  }
  for (int i = 0; i < receivers; ++i) {
    rx.push_back(f.add_host("rx" + std::to_string(i)));
    f.connect(leaf_b, rx.back(), run.host_rate, run.cable_m);
  }
  std::vector<int> flows;
  for (int i = 0; i < run.senders; ++i) {
    std::vector<std::vector<int>> paths;
    for (int s : spines) paths.push_back({tx[i], leaf_a, s, leaf_b, rx[i % receivers]});
    flows.push_back(f.add_flow(paths, run.mode, Bytes(0), Time(0)));
  }
  ctx.run(run.duration);
  MultipathResult r;
  r.spine_flows.assign(run.spines, 0);
  const Time window = run.duration - run.measure_from;
  for (int fl : flows) {
    const Bytes b = f.delivered_before(fl, run.duration) - f.delivered_before(fl, run.measure_from);
    r.flow_Gbps.push_back(gbit_per_s(b, window));  // window > 0: checked above
    r.total_Gbps += r.flow_Gbps.back();
    const FlowStats& st = f.flow(fl);
    r.out_of_order += st.out_of_order;
    r.max_reorder = std::max(r.max_reorder, st.max_reorder);
    if (run.mode == Multipath::ecmp) ++r.spine_flows[f.route_of(fl)];
  }
  r.min_Gbps = *std::min_element(r.flow_Gbps.begin(), r.flow_Gbps.end());
  for (int s : spines) r.pauses += f.port(f.port_between(leaf_a, s)).pauses_received;
  for (int i = 0; i < run.senders; ++i) r.pauses += f.port(f.port_between(tx[i], leaf_a)).pauses_received;
  r.drops = f.drops();
  return r;
}

}  // namespace iowall::net
