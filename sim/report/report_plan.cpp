// The report's section for one `iowall plan checkpoint` result: the request, sizes,
// save and restore times with their bottlenecks, availability, and the chart of
// checkpoint overhead against storage bandwidth for GDS and the bounce path.
#include <cmath>

#include <fmt/format.h>

#include "sim/report/html.hpp"
#include "sim/report/report_sections.hpp"

namespace iowall::report {
namespace {

using nlohmann::json;

std::string bytes(double b) {
  if (b >= 1e12) return fixed(b / 1e12, 3) + " TB";
  if (b >= 1e9) return fixed(b / 1e9, 3) + " GB";
  return fixed(b / 1e6, 3) + " MB";
}
std::string seconds(double s) { return fixed(s, s < 10 ? 3 : 1) + " s"; }
std::string percent(double f) { return fixed(100 * f, 2) + " %"; }

std::vector<std::string> phase_row(const std::string& name, const json& p) {
  const double last = number(p, "last_done_s");
  return {name, bytes(number(p, "bytes")), seconds(number(p, "first_done_s")), seconds(last),
          last > 0 ? fixed(number(p, "bytes") / last / 1e9, 2) + " GB/s" : "-", p.value("bottleneck", "-")};
}

ChartSpec overhead_chart(const json& r) {
  const json& c = r["overhead_vs_bandwidth"];
  const bool per_node = c.value("per_node", false);
  ChartSpec spec;
  spec.title = r.value("name", "checkpoint") + ": checkpoint overhead vs storage bandwidth";
  spec.xlabel = std::string(per_node ? "per-node" : "aggregate") + " storage write bandwidth (GB/s, log scale)";
  spec.ylabel = "overhead (% of wall time lost)";
  spec.log_x = true;
  spec.settings = "set yrange [0:*]\n";
  Series gds{"GDS (storage to GPU memory directly)", "lines lw 2", "1:2", {}};
  Series bounce{"bounce (via host memory)", "lines lw 2 dt 2", "1:2", {}};
  for (const auto& p : c.value("points", json::array())) {
    const double bw = number(p, "bandwidth_Bps") / 1e9;
    if (!(bw > 0)) continue;
    if (p["gds_overhead"].is_number() && std::isfinite(p["gds_overhead"].get<double>()))
      gds.rows.push_back(fmt::format("{:.6g} {:.6g}", bw, 100 * p["gds_overhead"].get<double>()));
    if (p["bounce_overhead"].is_number() && std::isfinite(p["bounce_overhead"].get<double>()))
      bounce.rows.push_back(fmt::format("{:.6g} {:.6g}", bw, 100 * p["bounce_overhead"].get<double>()));
  }
  spec.series = {gds, bounce};
  const double now = number(c, "current_bandwidth_Bps") / 1e9;
  if (now > 0)
    spec.settings += fmt::format("set arrow from {0:.6g}, graph 0 to {0:.6g}, graph 1 nohead dt 3 lc rgb 'gray40'\n"
                                 "set label 'this plan: {0:.4g} GB/s' at {0:.6g}, graph 0.95 left offset 0.5,0 tc rgb 'gray30'\n",
                                 now);
  return spec;
}

}  // namespace

std::string plan_section(const ResultDoc& doc, Charts& charts) {
  const json& r = doc.json;
  const json& st = r.value("state", json::object());
  const json& f = r.value("failures", json::object());
  std::string settings;
  const json request = r.value("settings", json::object());  // items() must not outlive it
  for (const auto& [k, v] : request.items())
    settings += (settings.empty() ? "" : ", ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  std::string s = fmt::format("<h2>Checkpoint plan: {}</h2>\n", html::escape(r.value("name", "checkpoint")));
  s += html::facts({{"result file", doc.file},
                    {"request", settings.empty() ? "-" : settings},
                    {"fidelity", fidelity_text(r.value("fidelity", ""))},
                    {"checkpoint size", bytes(number(st, "total_bytes"))},
                    {"parameters", fmt::format("{:.4g}", number(st, "params"))},
                    {"writers and nodes", fmt::format("{:.0f} writers on {:.0f} nodes", number(st, "writers"), number(st, "nodes"))},
                    {"largest shard", bytes(number(st, "rank_max_bytes")) + " per rank, " + bytes(number(st, "node_max_bytes")) + " per node"}});
  std::vector<std::vector<std::string>> rows{phase_row("save", r.value("save", json::object()))};
  if (r.contains("flush")) rows.push_back(phase_row("flush (async)", r["flush"]));
  rows.push_back(phase_row("restore", r.value("restore", json::object())));
  s += "<h3>Save and restore</h3>\n";
  s += html::table({"phase", "bytes", "first rank done", "last rank done", "rate (last rank)", "limited by"}, rows);
  s += html::paragraph("The slowest rank decides when a phase is done; \"limited by\" is the planner's bottleneck for "
                       "that phase.",
                       "note");
  const json& day = r.value("per_day", json::object());
  s += "<h3>Availability and cost</h3>\n";
  s += html::table({"quantity", "value"},
                   {{"checkpoint overhead", percent(number(r, "overhead")) + " of wall time"},
                    {"availability", percent(number(r, "availability"))},
                    {"availability without failures", percent(number(r, "availability_no_failures"))},
                    {"stall per checkpoint", seconds(number(r, "stall_s"))},
                    {"cluster MTBF", seconds(number(f, "mtbf_s"))},
                    {"checkpoint interval used", seconds(number(f, "interval_s"))},
                    {"Young / Daly optimal interval", seconds(number(f, "young_interval_s")) + " / " + seconds(number(f, "daly_interval_s"))},
                    {"GPU time lost per day", fixed(number(day, "gpu_hours_lost"), 0) + " GPU-h"},
                    {"energy lost per day", fixed(number(day, "mwh_lost"), 3) + " MWh"}});
  if (r.contains("inverse_bandwidth")) {
    const json& b = r["inverse_bandwidth"];
    s += html::paragraph(
        b["bandwidth_Bps"].is_number()
            ? fmt::format("Overhead {} needs {} storage bandwidth {:.4g} GB/s.", percent(number(b, "target_overhead")),
                          b.value("per_node", false) ? "per-node" : "aggregate", number(b, "bandwidth_Bps") / 1e9)
            : fmt::format("Overhead {} is out of reach: with unlimited storage bandwidth it is still {} (limited by {}).",
                          percent(number(b, "target_overhead")), percent(number(b, "floor_overhead")),
                          b.value("floor_bottleneck", "?")));
  }
  for (const auto& w : r.value("warnings", json::array())) s += html::paragraph("warning: " + w.get<std::string>(), "warning");
  if (r.contains("overhead_vs_bandwidth"))
    s += charts.figure(overhead_chart(r),
                       "Checkpoint overhead (% of wall time lost to saves, restores and rework) against storage write "
                       "bandwidth (GB/s), synchronous saves over GDS and over the bounce path; the dotted line marks "
                       "this plan's bandwidth.");
  else
    s += html::paragraph("This plan result carries no overhead curve, so there is no chart.", "nochart");
  return s;
}

}  // namespace iowall::report
