// The report's section for one `iowall run` result: scenario and topology, a row per
// data path, and charts of throughput, CPU cores and link utilization per path.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sim/report/html.hpp"
#include "sim/report/report_sections.hpp"

namespace iowall::report {
namespace {

using nlohmann::json;

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

std::string run_topology_text(const RunResult& r) {
  const std::string s = or_dash(r.topology);
  if (!r.topology_summary) return s;
  const TopologySummary& t = *r.topology_summary;
  std::vector<std::string> models;
  for (const auto& [model, n] : t.devices) models.push_back(fmt::format("{} {}", n, model));
  return fmt::format("{}: {} devices ({}), {} links", s, t.device_count, fmt::join(models, ", "), t.links);
}

// The scenario's workload as given (the result echoes it; it is input, not a figure).
std::string text_of(const json& j, const char* key, const std::string& fallback = "-") {
  if (!j.contains(key)) return fallback;
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

std::string workload_text(const json& w) {
  return fmt::format("{} of {} in {} I/Os, {} threads x queue depth {}, targets {}, storage {}",
                     w.value("kind", "sequential_read"), w.value("size", "1 GiB"), w.value("io_size", "1 MiB"),
                     w.value("threads", 1), w.value("qd", 1), text_of(w, "targets"), text_of(w, "storage"));
}

std::string bar_row(std::size_t i, double v, const std::string& label) {
  return fmt::format("{} {:.6g} {}", i, v, gp_field(label));
}

ChartSpec bars(const std::string& title, const std::string& ylabel, const std::string& legend,
               const std::vector<std::pair<std::string, double>>& values) {
  ChartSpec c;
  c.title = title;
  c.xlabel = "data path";
  c.ylabel = ylabel;
  c.settings = fmt::format("set boxwidth 0.6\nset style fill solid 0.75 border -1\nset yrange [0:*]\nset xrange [-0.6:{}]\n",
                           static_cast<double>(values.size()) - 0.4);
  Series s{legend, "boxes", "1:2:xtic(3)", {}};
  for (std::size_t i = 0; i < values.size(); ++i) s.rows.push_back(bar_row(i, values[i].second, values[i].first));
  c.series.push_back(std::move(s));
  return c;
}

// The busiest link directions over all paths, with each path's utilization of them.
std::string links_part(const RunResult& r, const std::vector<std::string>& paths, Charts& charts) {
  std::map<std::string, std::map<std::string, double>> util;  // link -> path -> utilization
  for (const PathResult& p : r.paths)
    for (const auto& [link, u] : link_utilization(p.stats)) util[link][p.label] = u;
  std::vector<std::pair<double, std::string>> ranked;
  for (const auto& [link, per_path] : util) {
    double top = 0;
    for (const auto& [p, u] : per_path) top = std::max(top, u);
    if (top > 0) ranked.emplace_back(-top, link);
  }
  std::sort(ranked.begin(), ranked.end());
  if (ranked.size() > 10) ranked.resize(10);
  if (ranked.empty()) return html::paragraph("The run's statistics hold no busy link, so there is no link chart.", "note");

  std::vector<std::vector<std::string>> rows;
  for (const auto& [neg, link] : ranked) {
    std::vector<std::string> row{link};
    for (const auto& p : paths) row.push_back(fixed(100 * util[link][p], 1));
    rows.push_back(row);
  }
  std::vector<std::string> headers{"link direction (port a--port b / direction)"};
  for (const auto& p : paths) headers.push_back(p + " utilization (%)");

  ChartSpec c;
  c.title = "Utilization of the busiest links (the critical route)";
  c.xlabel = "link direction";
  c.ylabel = "utilization (% of link bandwidth)";
  const double width = 0.8 / static_cast<double>(paths.size());
  c.settings = fmt::format(
      "set boxwidth {:.4f}\nset style fill solid 0.75 border -1\nset yrange [0:105]\nset xrange [-0.6:{}]\n"
      "set xtics rotate by 30 right font ',9'\nset bmargin 10\nset lmargin 16\n",
      width, static_cast<double>(ranked.size()) - 0.4);
  for (std::size_t j = 0; j < paths.size(); ++j) {
    Series s{paths[j], "boxes", j == 0 ? "1:2:xtic(3)" : "1:2", {}};
    const double offset = (static_cast<double>(j) - (static_cast<double>(paths.size()) - 1) / 2) * width;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      const std::string& link = ranked[i].second;
      s.rows.push_back(fmt::format("{:.4f} {:.6g} {}", static_cast<double>(i) + offset, 100 * util[link][paths[j]],
                                   gp_field(link)));
    }
    c.series.push_back(std::move(s));
  }
  std::string s = "<h3>Links on the critical route</h3>\n";
  s += html::paragraph(
      "The link directions with the highest time-weighted utilization in any path's run, busiest first: the route's "
      "bottleneck links. Utilization is busy time over the run, in % of the link's bandwidth.",
      "note");
  s += charts.figure(c, "Utilization per link direction and data path (%); the legend names the data paths.");
  return s + html::table(headers, rows);
}

}  // namespace

std::string run_section(const ResultDoc& doc, Charts& charts) {
  const RunResult& r = *doc.run;
  std::vector<std::string> paths;
  for (const PathResult& p : r.paths) paths.push_back(p.label);
  const std::string scenario = or_dash(r.scenario);
  std::string s = fmt::format("<h2>Run: {}</h2>\n", html::escape(scenario));
  s += html::facts({{"result file", doc.file},
                    {"scenario", scenario + (r.description.empty() ? "" : ": " + r.description)},
                    {"topology", run_topology_text(r)},
                    {"workload", workload_text(r.workload)},
                    {"data paths", fmt::format("{}", fmt::join(paths, ", "))},
                    {"fidelity", fidelity_text(r.fidelity)},
                    {"seed", r.seed ? fmt::format("{}", *r.seed) : "-"},
                    {"iowall version", r.iowall_version.value_or("-")}});

  std::vector<std::vector<std::string>> rows;
  std::vector<std::pair<std::string, double>> gbps, cores;
  std::string notes;
  bool any_stats = false;
  for (const PathResult& p : r.paths) {
    const PathMetrics& m = p.metrics;
    rows.push_back({p.label, fixed(m.throughput_GBps, 2), fixed(m.iops, 0), fixed(m.latency_mean_us, 1),
                    fixed(m.latency_p50_us, 1), fixed(m.latency_p99_us, 1), fixed(m.latency_p999_us, 1),
                    fixed(m.cpu_cores_busy, 2), fixed(m.first_done_s, 4), fixed(m.last_done_s, 4),
                    limiter_text(m, p.stats)});
    gbps.emplace_back(p.label, m.throughput_GBps);
    cores.emplace_back(p.label, m.cpu_cores_busy);
    if (!m.note.empty()) notes += html::paragraph(p.label + ": " + m.note, "note");
    any_stats = any_stats || !p.stats.empty();
  }
  s += "<h3>Results per data path</h3>\n";
  s += html::table({"data path", "throughput (GB/s)", "IOPS (I/O per s)", "mean latency (µs)", "p50 latency (µs)",
                    "p99 latency (µs)", "p99.9 latency (µs)", "CPU cores busy (cores)", "first done (s)",
                    "last done (s)", "limited by (utilization)"},
                   rows);
  s += html::paragraph(fmt::format("Produced at {} fidelity. \"Limited by\" is the busiest resource of each path's run "
                                   "with its time-weighted utilization; GB/s is 10^9 bytes per second.",
                                   r.fidelity.empty() ? "?" : r.fidelity),
                       "note");
  s += notes;
  s += charts.figure(bars(scenario + ": throughput per data path", "throughput (GB/s)", "throughput (GB/s)", gbps),
                     "Throughput per data path, GB/s (10^9 bytes per second).");
  s += charts.figure(bars(scenario + ": CPU cores busy per data path", "CPU cores busy (cores)", "CPU cores busy", cores),
                     "Host CPU cores kept busy per data path (time-weighted mean over the run, in cores).");
  s += uncertainty_part(r, charts);
  if (any_stats) s += links_part(r, paths, charts);
  return s;
}

}  // namespace iowall::report
