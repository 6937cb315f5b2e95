// The report's section for one `iowall plan checkpoint` result: the request, sizes,
// save and restore times with their bottlenecks, availability, and the chart of
// total overhead (saves, restores, rework) against storage bandwidth for GDS and the bounce path.
// With --uncertainty the save, restore and overhead figures carry their median and 90%
// interval (and the chart the plan's overhead with its error bar); the intervals' and the
// sensitivity's own part is report_plan_uncertainty.cpp.
#include <cmath>

#include <fmt/format.h>

#include "sim/report/html.hpp"
#include "sim/report/report_sections.hpp"
#include "sim/report/uncertainty_charts.hpp"

namespace iowall::report {
namespace {

std::string bytes(double b) {
  if (b >= 1e12) return fixed(b / 1e12, 3) + " TB";
  if (b >= 1e9) return fixed(b / 1e9, 3) + " GB";
  return fixed(b / 1e6, 3) + " MB";
}
std::string seconds(double s) { return fixed(s, s < 10 ? 3 : 1) + " s"; }
std::string percent_text(double f) { return fixed(100 * f, 2) + " %"; }

// With --uncertainty, `interval` (the last rank's) follows the last rank's time.
std::vector<std::string> phase_row(const std::string& name, const PlanPhaseResult& p, const PlanCheckpointResult& r,
                                   const char* interval) {
  const double last = p.last_done_s;
  std::vector<std::string> row{name, bytes(p.bytes), seconds(p.first_done_s), seconds(last)};
  if (!r.intervals.empty()) {
    const auto it = interval ? r.intervals.find(interval) : r.intervals.end();
    row.push_back(it == r.intervals.end() ? "-" : interval_cell(it->second, 3) + " s");
  }
  row.push_back(last > 0 ? fixed(p.bytes / last / 1e9, 2) + " GB/s" : "-");
  row.push_back(or_text(p.bottleneck, "-"));
  return row;
}

ChartSpec overhead_chart(const PlanCheckpointResult& r) {
  const PlanOverheadCurve& c = *r.overhead_vs_bandwidth;
  ChartSpec spec;
  spec.title = or_text(r.name, "checkpoint") + ": total overhead (saves, restores, rework) vs storage bandwidth";
  spec.xlabel = std::string(c.per_node ? "per-node" : "aggregate") + " storage write bandwidth (GB/s, log scale)";
  spec.ylabel = "overhead (% of wall time lost)";
  spec.log_x = true;
  spec.settings = "set yrange [0:*]\n";
  Series gds{"GDS (storage to GPU memory directly)", "lines lw 2", "1:2", {}};
  Series bounce{"bounce (via host memory)", "lines lw 2 dt 2", "1:2", {}};
  for (const auto& p : c.points) {
    const double bw = p.bandwidth_Bps / 1e9;
    if (!(bw > 0)) continue;
    if (std::isfinite(p.gds_overhead)) gds.rows.push_back(fmt::format("{:.6g} {:.6g}", bw, 100 * p.gds_overhead));
    if (std::isfinite(p.bounce_overhead))
      bounce.rows.push_back(fmt::format("{:.6g} {:.6g}", bw, 100 * p.bounce_overhead));
  }
  spec.series = {gds, bounce};
  const double now = c.current_bandwidth_Bps / 1e9;
  const auto iv = r.intervals.find("overhead");
  if (now > 0 && iv != r.intervals.end()) {
    const Interval& v = iv->second;
    spec.series.push_back({"this plan: median and 90% interval over the samples", "yerrorbars pt 7 ps 1.2 lw 2",
                           "1:2:3:4",
                           {fmt::format("{:.6g} {:.6g} {:.6g} {:.6g}", now, 100 * v.median, 100 * v.low, 100 * v.high)}});
  }
  if (now > 0)
    spec.settings += fmt::format("set arrow from {0:.6g}, graph 0 to {0:.6g}, graph 1 nohead dt 3 lc rgb 'gray40'\n"
                                 "set label 'this plan: {0:.4g} GB/s' at {0:.6g}, graph 0.95 left offset 0.5,0 tc rgb 'gray30'\n",
                                 now);
  return spec;
}

}  // namespace

std::string plan_section(const ResultDoc& doc, Charts& charts) {
  const PlanCheckpointResult& r = *doc.plan;
  const PlanStateResult& st = r.state;
  const PlanFailuresResult& f = r.failures;
  std::string settings;  // the request as given
  for (const auto& [k, v] : r.settings.items())
    settings += (settings.empty() ? "" : ", ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  std::string s = fmt::format("<h2>Checkpoint plan: {}</h2>\n", html::escape(or_text(r.name, "checkpoint")));
  s += html::facts({{"result file", doc.file},
                    {"request", settings.empty() ? "-" : settings},
                    {"fidelity", fidelity_text(r.fidelity)},
                    {"checkpoint size", bytes(st.total_bytes)},
                    {"parameters", fmt::format("{:.4g}", st.params)},
                    {"writers and nodes", fmt::format("{} writers on {} nodes", st.writers, st.nodes)},
                    {"largest shard", bytes(st.rank_max_bytes) + " per rank, " + bytes(st.node_max_bytes) + " per node"}});
  std::vector<std::vector<std::string>> rows{phase_row("save", r.save, r, "save_s")};
  if (r.flush) rows.push_back(phase_row("flush (async)", *r.flush, r, nullptr));
  rows.push_back(phase_row("restore", r.restore, r, "restore_s"));
  s += "<h3>Save and restore</h3>\n";
  std::vector<std::string> headers{"phase", "bytes", "first rank done", "last rank done", "rate (last rank)", "limited by"};
  if (!r.intervals.empty()) headers.insert(headers.begin() + 4, "last rank done, median [5% .. 95%]");
  s += html::table(headers, rows);
  s += html::paragraph("The slowest rank decides when a phase is done; \"limited by\" is the planner's bottleneck for "
                       "that phase.",
                       "note");
  const PlanPerDayResult& day = r.per_day;
  std::string overhead_interval;
  if (const auto iv = r.intervals.find("overhead"); iv != r.intervals.end())
    overhead_interval = fmt::format("; median [5% .. 95%] {} %", interval_cell(scaled(iv->second, 100), 3));
  s += "<h3>Availability and cost</h3>\n";
  s += html::table({"quantity", "value"},
                   {{"overhead (checkpoints, failures and recovery)", percent_text(r.overhead) + " of wall time" + overhead_interval},
                    {"availability", percent_text(r.availability)},
                    {"availability without failures", percent_text(r.availability_no_failures)},
                    {"stall per checkpoint", seconds(r.stall_s)},
                    {"cluster MTBF", seconds(f.mtbf_s)},
                    {"checkpoint interval used", seconds(f.interval_s)},
                    {"Young / Daly optimal interval", seconds(f.young_interval_s) + " / " + seconds(f.daly_interval_s)},
                    {"GPU time lost per day", fixed(day.gpu_hours_lost, 0) + " GPU-h"},
                    {"energy lost per day", fixed(day.mwh_lost, 3) + " MWh"}});
  if (const auto& b = r.inverse_bandwidth) {
    s += html::paragraph(
        b->bandwidth_Bps
            ? fmt::format("Overhead {} needs {} storage bandwidth {:.4g} GB/s.", percent_text(b->target_overhead),
                          b->per_node ? "per-node" : "aggregate", *b->bandwidth_Bps / 1e9)
            : fmt::format("Overhead {} is out of reach: with unlimited storage bandwidth it is still {} (limited by {}).",
                          percent_text(b->target_overhead), percent_text(b->floor_overhead), or_text(b->floor_bottleneck, "?")));
  }
  for (const auto& w : r.warnings) s += html::paragraph("warning: " + w, "warning");
  if (r.overhead_vs_bandwidth)
    s += charts.figure(overhead_chart(r),
                       std::string("Total overhead (% of wall time lost to saves, restores and rework after failures) "
                                   "against storage write bandwidth (GB/s), synchronous saves over GDS and over the bounce "
                                   "path; the dotted line marks this plan's bandwidth") +
                           (r.intervals.count("overhead") && r.overhead_vs_bandwidth->current_bandwidth_Bps > 0
                                ? "; the point on it with its error bar is this plan's overhead, median and 90% interval "
                                  "over the samples (error bars)."
                                : "."));
  else
    s += html::paragraph("This plan result carries no overhead curve, so there is no chart.", "nochart");
  return s + plan_uncertainty_part(r, charts);
}

}  // namespace iowall::report
