#include "sim/plan/plan_chart.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "sim/report/gnuplot.hpp"
#include "sim/plan/checkpoint_planner.hpp"

namespace iowall::plan {
OverheadCurve overhead_curve(const PlanRequest& q) {
  const PlanInput& base = q.input;
  OverheadCurve c;
  c.per_node = !(base.storage.write_bw > 0);
  c.current_Bps = c.per_node ? base.storage.node_write_bw : base.storage.write_bw;
  const checkpoint::ShardPlan sh = checkpoint::shard(base.state, base.par);
  c.total_bytes = static_cast<double>(sh.total_bytes);
  const PhaseLoads loads = phase_loads(base, sh);
  constexpr int kPoints = 48;
  for (int i = 0; i <= kPoints; ++i) {
    const double bw = c.current_Bps / 30.0 * std::pow(900.0, static_cast<double>(i) / kPoints);
    PlanInput in = with_storage_bandwidth(base, bw);
    in.async = false;
    in.path = IoPath::gds;
    const double gds = plan_with(in, sh, loads).overhead;
    in.path = IoPath::bounce;
    const double bounce = plan_with(in, sh, loads).overhead;
    c.points.push_back({bw, gds, bounce});
  }
  return c;
}

std::string chart_script(const PlanRequest& q) {
  const PlanInput& base = q.input;
  const OverheadCurve curve = overhead_curve(q);
  const bool per_node = curve.per_node;
  std::string data;
  for (const auto& p : curve.points)
    data += fmt::format("{:.6g} {:.6g} {:.6g}\n", p.bandwidth_Bps / 1e9, 100 * p.gds, 100 * p.bounce);
  return fmt::format(
      "set terminal svg size 800,500 dynamic font 'sans,12'\n"
      "set title \"{}: total overhead (saves, restores, rework) vs storage bandwidth ({} GPUs, {:.3g} TB)\" noenhanced\n"
      "set xlabel \"{} storage write bandwidth (GB/s)\"\nset ylabel \"overhead (% of wall time lost)\"\n"
      "set logscale x\nset grid\nset key top right\n"
      "$d << EOD\n{}EOD\n"
      "plot $d using 1:2 with lines lw 2 title 'GDS', $d using 1:3 with lines lw 2 dt 2 title 'bounce (via host memory)'\n",
      q.name, base.par.gpus, curve.total_bytes / 1e12, per_node ? "per-node" : "aggregate", data);
}

std::string render_chart(const PlanRequest& q, const std::string& svg_path) {
  if (q.input.node_sim) return "not drawn: --node simulates one path, and the chart compares GDS with the bounce path";
  return render_svg(chart_script(q), svg_path);
}

}  // namespace iowall::plan
