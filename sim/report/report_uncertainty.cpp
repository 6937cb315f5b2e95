// The report's part for a run with --uncertainty or --sensitivity: each headline figure's
// median and 90% interval (a table, and the throughput chart with error bars), the
// uncertain inputs, and per data path a tornado chart: each input alone at its 5% and 95%
// quantile, the bar the change of throughput from the nominal run (largest swing on top).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/html.hpp"
#include "sim/report/report_sections.hpp"
#include "sim/report/uncertainty_charts.hpp"

namespace iowall::report {
namespace {

std::string run_intervals_part(const RunResult& r, Charts& charts) {
  const UncertaintySummary& u = *r.uncertainty;
  std::string s = "<h3>Prediction intervals</h3>\n";
  s += html::paragraph(
      fmt::format("Each figure as median [5% .. 95%] over {} samples (seed {}): every sample is a full run with each "
                  "uncertain input drawn from its distribution{}.",
                  u.samples, u.seed, u.widened ? ", widened by the validation corpus's error for the kind of figure" : ""),
      "note");
  std::vector<std::string> headers{"data path"};
  for (const HeadlineMetric& h : headline_metrics()) headers.push_back(std::string(h.title) + ", median [5% .. 95%]");
  std::vector<std::vector<std::string>> rows;
  std::vector<IntervalBar> bars;
  for (const PathResult& p : r.paths) {
    if (!p.intervals) continue;
    std::vector<std::string> row{p.label};
    for (const HeadlineMetric& h : headline_metrics()) row.push_back(interval_cell((*p.intervals).*h.interval, h.digits));
    rows.push_back(std::move(row));
    bars.push_back({p.label, p.metrics.throughput_GBps, p.intervals->throughput_GBps});
  }
  s += html::table(headers, rows);
  s += interval_chart(r.scenario + ": throughput per data path with its 90% interval", "data path", "throughput (GB/s)",
                      "run", "GB/s", bars,
                      "Throughput per data path: the nominal run (bars) and the median with the 90% interval over the "
                      "samples (error bars), GB/s.",
                      charts);
  return s + inputs_table(u);
}

// One path's tornado: throughput's change (%) from the nominal run with each input at its
// 5% and at its 95% quantile; inputs that do not move it are left out.
std::string tornado(const RunResult& r, const PathResult& p, const SensitivityResult& sens, Charts& charts) {
  const double y0 = p.metrics.*headline_metric(sens.metric)->value;
  return tornado_chart({fmt::format("{}: sensitivity of {} on {}, each input alone", r.scenario,
                                    headline_metric(sens.metric)->title, p.label),
                        p.label, sens.metric, "throughput", "run", y0, fmt::format("{:.2f} GB/s", y0)},
                       sens, charts);
}

std::string run_sensitivity_part(const RunResult& r, Charts& charts) {
  const SensitivityResult& s = *r.sensitivity;
  const HeadlineMetric* h = headline_metric(s.metric);
  std::string out = "<h3>Sensitivity: which inputs decide the answer</h3>\n";
  out += html::paragraph(
      fmt::format("Each uncertain input alone from its 5% to its 95% quantile, the others at their nominal values. "
                  "Elasticity is the % change of {} per % change of the input; its sign is the direction (+: the answer "
                  "rises with the input, -: it falls).",
                  h ? h->title : s.metric),
      "note");
  if (s.rows.empty() || !h) return out + html::paragraph("No input carries an uncertainty.", "note");
  std::vector<std::string> headers{"input", "5% .. 95% quantile"};
  for (const PathResult& p : r.paths) headers.push_back(p.label + " elasticity (% per %)");
  std::vector<std::vector<std::string>> rows;
  for (const SensitivityRow& row : s.rows) {
    std::vector<std::string> cells{row.input, row.low + " .. " + row.high};
    for (const PathResult& p : r.paths) {
      const auto pe = row.effects.find(p.label);
      const bool has = pe != row.effects.end() && pe->second.count(s.metric);
      cells.push_back(has ? fmt::format("{:+.3f}", pe->second.at(s.metric).elasticity) : "-");
    }
    rows.push_back(std::move(cells));
  }
  out += html::table(headers, rows, 2);
  for (const PathResult& p : r.paths) out += tornado(r, p, s, charts);
  if (!s.combined.empty()) {
    out += html::paragraph("The top inputs of each path together, all at the ends that lower the answer, then all at "
                           "those that raise it:",
                           "note");
    out += combined_table(s, "data path", "GB/s", 1, 2);
  }
  return out;
}

}  // namespace

std::string uncertainty_part(const RunResult& r, Charts& charts) {
  std::string s;
  if (r.uncertainty) s += run_intervals_part(r, charts);
  if (r.sensitivity) s += run_sensitivity_part(r, charts);
  return s;
}

}  // namespace iowall::report
