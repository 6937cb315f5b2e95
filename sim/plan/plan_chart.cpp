#include "sim/plan/plan_chart.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/plan/checkpoint_planner.hpp"

namespace iowall::plan {
namespace {

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string dir;
  while (std::getline(ss, dir, ':'))
    if (!dir.empty() && ::access((std::filesystem::path(dir) / program).c_str(), X_OK) == 0) return true;
  return false;
}

}  // namespace

std::string chart_script(const PlanRequest& q) {
  const PlanInput& base = q.input;
  const bool per_node = !(base.storage.write_bw > 0);
  const double now = per_node ? base.storage.node_write_bw : base.storage.write_bw;
  const checkpoint::ShardPlan sh = checkpoint::shard(base.state, base.par);
  const PhaseLoads loads = phase_loads(base, sh);
  std::string data;
  constexpr int kPoints = 48;
  for (int i = 0; i <= kPoints; ++i) {
    const double bw = now / 30.0 * std::pow(900.0, static_cast<double>(i) / kPoints);
    PlanInput in = with_storage_bandwidth(base, bw);
    in.async = false;
    in.path = IoPath::gds;
    const double gds = plan_with(in, sh, loads).overhead;
    in.path = IoPath::bounce;
    const double bounce = plan_with(in, sh, loads).overhead;
    data += fmt::format("{:.6g} {:.6g} {:.6g}\n", bw / 1e9, 100 * gds, 100 * bounce);
  }
  return fmt::format(
      "set terminal svg size 800,500 dynamic font 'sans,12'\n"
      "set title \"{}: checkpoint overhead vs storage bandwidth ({} GPUs, {:.3g} TB)\" noenhanced\n"
      "set xlabel \"{} storage write bandwidth (GB/s)\"\nset ylabel \"overhead (% of wall time lost)\"\n"
      "set logscale x\nset grid\nset key top right\n"
      "$d << EOD\n{}EOD\n"
      "plot $d using 1:2 with lines lw 2 title 'GDS', $d using 1:3 with lines lw 2 dt 2 title 'bounce (via host memory)'\n",
      q.name, base.par.gpus, static_cast<double>(sh.total_bytes) / 1e12, per_node ? "per-node" : "aggregate", data);
}

std::string render_chart(const PlanRequest& q, const std::string& svg_path) {
  if (!on_path("gnuplot")) return "gnuplot is not installed: no chart (the table is complete without it)";
  const std::string script = chart_script(q);
  const std::string tmp = svg_path + ".gp.tmp";
  write_file_atomically(tmp, script);
  FILE* p = ::popen(("gnuplot '" + tmp + "' 2>/dev/null").c_str(), "r");
  std::string svg;
  if (p) {
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) svg.append(buf, n);
  }
  const int rc = p ? ::pclose(p) : -1;
  std::remove(tmp.c_str());
  if (rc != 0 || svg.find("<svg") == std::string::npos) return "gnuplot failed: no chart";
  write_file_atomically(svg_path, svg);
  return svg_path;
}

}  // namespace iowall::plan
