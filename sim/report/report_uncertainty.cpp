// The report's part for a run with --uncertainty or --sensitivity: each headline figure's
// median and 90% interval (a table, and the throughput chart with error bars), the
// uncertain inputs, and per data path a tornado chart: each input alone at its 5% and 95%
// quantile, the bar the change of throughput from the nominal run (largest swing on top).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/html.hpp"
#include "sim/report/report_sections.hpp"

namespace iowall::report {
namespace {

std::string interval_cell(const Interval& v, int digits) {
  return fmt::format("{} [{} .. {}]", fixed(v.median, digits), fixed(v.low, digits), fixed(v.high, digits));
}

std::string intervals_part(const RunResult& r, Charts& charts) {
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
  ChartSpec c;
  c.title = r.scenario + ": throughput per data path with its 90% interval";
  c.xlabel = "data path";
  c.ylabel = "throughput (GB/s)";
  c.settings = fmt::format("set boxwidth 0.6\nset style fill solid 0.5 border -1\nset yrange [0:*]\nset xrange [-0.6:{}]\n",
                           static_cast<double>(r.paths.size()) - 0.4);
  Series nominal{"nominal run (GB/s)", "boxes", "1:2:xtic(3)", {}};
  Series band{"median and 90% interval (GB/s)", "yerrorbars pt 7 ps 1.2 lw 2", "1:2:3:4", {}};
  for (std::size_t i = 0; i < r.paths.size(); ++i) {
    const PathResult& p = r.paths[i];
    if (!p.intervals) continue;
    std::vector<std::string> row{p.label};
    for (const HeadlineMetric& h : headline_metrics()) row.push_back(interval_cell((*p.intervals).*h.interval, h.digits));
    rows.push_back(std::move(row));
    const Interval& t = p.intervals->throughput_GBps;
    nominal.rows.push_back(fmt::format("{} {:.6g} {}", i, p.metrics.throughput_GBps, gp_field(p.label)));
    band.rows.push_back(fmt::format("{} {:.6g} {:.6g} {:.6g}", i, t.median, t.low, t.high));
  }
  s += html::table(headers, rows);
  c.series = {nominal, band};
  s += charts.figure(c, "Throughput per data path: the nominal run (bars) and the median with the 90% interval over the "
                        "samples (error bars), GB/s.");
  if (!u.inputs.empty()) {
    std::vector<std::vector<std::string>> in;
    for (const UncertainInputSummary& i : u.inputs)
      in.push_back({i.label, i.text, fmt::format("{}", i.places), i.low + " .. " + i.high, i.distribution, i.where});
    s += html::table({"uncertain input", "as written", "places sharing it", "5% .. 95% quantile", "distribution",
                      "first given at"},
                     in);
  }
  for (const std::string& n : u.notes) s += html::paragraph(n, "note");
  return s;
}

// One path's tornado: the ranked metric's change (%) from the nominal run with each input
// at its 5% and at its 95% quantile; inputs that do not move it are left out.
std::string tornado(const RunResult& r, const PathResult& p, const SensitivityResult& sens, Charts& charts) {
  const double y0 = p.metrics.*headline_metric(sens.metric)->value;
  struct Bar {
    std::string input;
    double low, high;  // % change
  };
  std::vector<Bar> bars;
  for (const SensitivityRow& row : sens.rows) {
    const auto pe = row.effects.find(p.label);
    if (pe == row.effects.end() || !pe->second.count(sens.metric) || y0 == 0) continue;
    const SensitivityEffect& e = pe->second.at(sens.metric);
    const Bar b{row.input + " (" + row.low + " .. " + row.high + ")", 100 * (e.at_low / y0 - 1), 100 * (e.at_high / y0 - 1)};
    if (b.low != 0 || b.high != 0) bars.push_back(b);
  }
  std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) {
    return std::fabs(a.high - a.low) > std::fabs(b.high - b.low);
  });
  if (bars.size() > 12) bars.resize(12);
  if (bars.empty())
    return html::paragraph(fmt::format("{}: no uncertain input moves its throughput, so there is no tornado chart.", p.label),
                           "note");
  ChartSpec c;
  c.title = fmt::format("{}: sensitivity of {} on {}, each input alone", r.scenario, headline_metric(sens.metric)->title, p.label);
  c.xlabel = "change of throughput from the nominal run (%)";
  c.ylabel = "";
  c.height = std::max(300, 120 + 34 * static_cast<int>(bars.size()));
  c.key = "outside bottom center horizontal";
  c.settings = fmt::format(
      "set style fill solid 0.75 border -1\nset yrange [-0.6:{}]\nset lmargin 48\nset ytics font ',10'\n"
      "set arrow from 0, graph 0 to 0, graph 1 nohead lw 2\n",
      static_cast<double>(bars.size()) - 0.4);
  Series at_low{"input at its 5% quantile", "boxxyerror", "(($3+$4)/2):2:3:4:($2-0.35):($2+0.35):ytic(5)", {}};
  Series at_high{"input at its 95% quantile", "boxxyerror", "(($3+$4)/2):2:3:4:($2-0.35):($2+0.35)", {}};
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const double y = static_cast<double>(bars.size() - 1 - i);
    const Bar& b = bars[i];
    at_low.rows.push_back(fmt::format("{} {} {:.6g} {:.6g} {}", i, y, std::min(0.0, b.low), std::max(0.0, b.low),
                                      gp_field(b.input)));
    at_high.rows.push_back(fmt::format("{} {} {:.6g} {:.6g} {}", i, y, std::min(0.0, b.high), std::max(0.0, b.high),
                                       gp_field(b.input)));
  }
  c.series = {at_low, at_high};
  return charts.figure(c, fmt::format("Tornado chart for {}: how far throughput moves from the nominal run ({:.2f} GB/s) "
                                      "when one input goes to its 5% or its 95% quantile, the others nominal; the widest "
                                      "bar is the input that decides the answer most.",
                                      p.label, y0));
}

std::string sensitivity_part(const RunResult& r, Charts& charts) {
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
    std::vector<std::vector<std::string>> comb;
    for (const SensitivityCombined& c : s.combined)
      comb.push_back({c.path, fmt::format("{}", fmt::join(c.inputs, ", ")), fixed(c.at_low, 2), fixed(c.nominal, 2),
                      fixed(c.at_high, 2)});
    out += html::paragraph("The top inputs of each path together, all at the ends that lower the answer, then all at "
                           "those that raise it:",
                           "note");
    out += html::table({"data path", "inputs", "together low (GB/s)", "nominal (GB/s)", "together high (GB/s)"}, comb, 2);
  }
  return out;
}

}  // namespace

std::string uncertainty_part(const RunResult& r, Charts& charts) {
  std::string s;
  if (r.uncertainty) s += intervals_part(r, charts);
  if (r.sensitivity) s += sensitivity_part(r, charts);
  return s;
}

}  // namespace iowall::report
