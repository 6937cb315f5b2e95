// The report's section for one `iowall sweep` result: a row per point and data path,
// and throughput, latency and CPU cores against the swept value, one curve per path (with
// --uncertainty, each point's 90% interval as error bars).
#include <fmt/format.h>

#include "sim/core/units.hpp"
#include "sim/report/html.hpp"
#include "sim/report/report_sections.hpp"

namespace iowall::report {
namespace {

using nlohmann::json;

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string point_label(const json& values) {
  std::string s;
  for (const auto& [k, v] : values.items()) s += (s.empty() ? "" : ", ") + k + "=" + value_text(v);
  return s.empty() ? "(base)" : s;
}

// The x of every point: the I/O size in KiB when that is the only axis, else the point's index.
struct XAxis {
  bool io_size = false;
  std::vector<double> x;
  std::vector<std::string> labels;
};

XAxis x_axis(const std::vector<SweepPointResult>& points) {
  XAxis a;
  a.io_size = !points.empty();
  for (const SweepPointResult& pt : points) {
    const json& v = pt.values;
    Bytes b;
    a.io_size = a.io_size && v.size() == 1 && v.contains("/workload/io_size") && v["/workload/io_size"].is_string() &&
                parse_bytes(v["/workload/io_size"].get<std::string>(), b).ok && b.is_positive();
    a.x.push_back(a.io_size ? b.KiB() : static_cast<double>(a.x.size()));
    a.labels.push_back(point_label(v));
  }
  if (!a.io_size)
    for (std::size_t i = 0; i < a.x.size(); ++i) a.x[i] = static_cast<double>(i);
  return a;
}

ChartSpec curves(const std::string& title, const std::string& ylabel, const XAxis& ax,
                 const std::vector<SweepPointResult>& points, const std::vector<std::string>& paths,
                 double PathMetrics::*metric, bool log_y) {
  ChartSpec c;
  c.title = title;
  c.ylabel = ylabel;
  c.log_y = log_y;
  if (ax.io_size) {
    c.xlabel = "I/O size (KiB)";
    c.log_x = true;
  } else {
    c.xlabel = "sweep point";
    c.settings = fmt::format("set xrange [-0.5:{}]\nset xtics rotate by 30 right font ',9'\nset bmargin 10\nset lmargin 16\n",
                             static_cast<double>(ax.x.size()) - 0.5);
  }
  if (!log_y) c.settings += "set yrange [0:*]\n";
  for (std::size_t j = 0; j < paths.size(); ++j) {
    Series s{paths[j], "linespoints lw 2 pt 7", ax.io_size || j > 0 ? "1:2" : "1:2:xtic(3)", {}};
    for (std::size_t i = 0; i < points.size(); ++i) {
      const PathResult* p = points[i].result.path(paths[j]);
      if (!p || (log_y && !(p->metrics.*metric > 0))) continue;
      s.rows.push_back(fmt::format("{:.6g} {:.6g} {}", ax.x[i], p->metrics.*metric, gp_field(ax.labels[i])));
    }
    c.series.push_back(std::move(s));
  }
  // --uncertainty: each point's 90% interval (5% to 95%) around its median, as error bars.
  const HeadlineMetric* h = nullptr;
  for (const HeadlineMetric& m : headline_metrics())
    if (m.value == metric) h = &m;
  for (std::size_t j = 0; j < paths.size() && h; ++j) {
    Series e{paths[j] + " 90% interval", "yerrorbars pt 0 lw 1", "1:2:3:4", {}};
    for (std::size_t i = 0; i < points.size(); ++i) {
      const PathResult* p = points[i].result.path(paths[j]);
      if (!p || !p->intervals) continue;
      const Interval& v = (*p->intervals).*(h->interval);
      if (log_y && !(v.low > 0)) continue;
      e.rows.push_back(fmt::format("{:.6g} {:.6g} {:.6g} {:.6g}", ax.x[i], v.median, v.low, v.high));
    }
    c.series.push_back(std::move(e));
  }
  return c;
}

}  // namespace

std::string sweep_section(const ResultDoc& doc, Charts& charts) {
  const SweepResult& r = *doc.sweep;
  const std::vector<SweepPointResult>& points = r.points;
  const std::string scenario = r.scenario.empty() ? "?" : r.scenario;
  std::vector<std::string> paths;
  std::string fidelity, topology, seed;
  if (!points.empty()) {
    const RunResult& first = points[0].result;
    for (const PathResult& p : first.paths) paths.push_back(p.label);
    fidelity = first.fidelity;
    topology = first.topology;
    seed = first.seed ? fmt::format("{}", *first.seed) : "-";
  }
  std::string s = fmt::format("<h2>Sweep: {}</h2>\n", html::escape(scenario));
  s += html::facts({{"result file", doc.file},
                    {"scenario", scenario},
                    {"topology", topology.empty() ? "-" : topology},
                    {"points", fmt::format("{}", points.size())},
                    {"data paths", fmt::format("{}", fmt::join(paths, ", "))},
                    {"fidelity", fidelity_text(fidelity)},
                    {"seed", seed},
                    {"iowall version", r.iowall_version.value_or("-")}});
  std::vector<std::vector<std::string>> rows;
  for (const SweepPointResult& pt : points) {
    const RunResult& res = pt.result;
    for (const auto& label : paths) {
      static const PathResult none{};
      const PathResult* p = res.path(label);
      const PathResult& pr = p ? *p : none;
      const PathMetrics& m = pr.metrics;
      rows.push_back({point_label(pt.values), label, fixed(m.throughput_GBps, 2), fixed(m.latency_p50_us, 1),
                      fixed(m.latency_p99_us, 1), fixed(m.cpu_cores_busy, 2), res.fidelity.empty() ? "?" : res.fidelity,
                      limiter_text(m, pr.stats)});
    }
  }
  const XAxis ax = x_axis(points);
  s += charts.figure(curves(scenario + ": throughput vs " + (ax.io_size ? "I/O size" : "sweep point"),
                            "throughput (GB/s)", ax, points, paths, &PathMetrics::throughput_GBps, false),
                     "Throughput per data path, GB/s (10^9 bytes per second), one curve per path.");
  s += charts.figure(curves(scenario + ": p99 latency vs " + (ax.io_size ? "I/O size" : "sweep point"),
                            "p99 latency per I/O (µs, log scale)", ax, points, paths, &PathMetrics::latency_p99_us, true),
                     "99th percentile completion latency of one I/O per data path, in µs (log scale).");
  s += charts.figure(curves(scenario + ": CPU cores busy vs " + (ax.io_size ? "I/O size" : "sweep point"),
                            "CPU cores busy (cores)", ax, points, paths, &PathMetrics::cpu_cores_busy, false),
                     "Host CPU cores kept busy per data path (time-weighted mean, in cores).");
  s += "<h3>Results per point and data path</h3>\n";
  s += html::table({"sweep point", "data path", "throughput (GB/s)", "p50 latency (µs)", "p99 latency (µs)",
                    "CPU cores busy (cores)", "fidelity", "limited by (utilization)"},
                   rows, 2);
  return s;
}

}  // namespace iowall::report
