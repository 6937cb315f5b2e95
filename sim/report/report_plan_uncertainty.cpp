// The report's part for a plan with --uncertainty or --sensitivity: the save time, restore
// time and overhead as median [5% .. 95%] over the samples beside the nominal plan (a
// table, and a chart of the save and restore times with error bars), the uncertain inputs,
// and with --sensitivity each input's elasticity for the three figures and the tornado
// chart of the overhead (the renderers a run's part uses, sim/report/uncertainty_charts.hpp).
#include <fmt/format.h>

#include "sim/report/html.hpp"
#include "sim/report/report_sections.hpp"
#include "sim/report/uncertainty_charts.hpp"

namespace iowall::report {
namespace {

struct PlanFigure {
  const char* key;
  const char* title;  // for people, with its unit
  double scale;       // to the unit of the title
  int digits;
  double PlanCheckpointResult::*nominal_field;  // or null: a phase's last rank
  PlanPhaseResult PlanCheckpointResult::*phase;
};

const std::vector<PlanFigure>& plan_figures() {
  static const std::vector<PlanFigure> f = {
      {"save_s", "save, last rank done (s)", 1, 3, nullptr, &PlanCheckpointResult::save},
      {"restore_s", "restore, last rank done (s)", 1, 3, nullptr, &PlanCheckpointResult::restore},
      {"overhead", "overhead (% of wall time)", 100, 3, &PlanCheckpointResult::overhead, nullptr}};
  return f;
}

double nominal_of(const PlanCheckpointResult& r, const PlanFigure& f) {
  return f.nominal_field ? r.*f.nominal_field : (r.*f.phase).last_done_s;
}

std::string or_name(const PlanCheckpointResult& r) { return r.name.empty() ? "checkpoint" : r.name; }

std::string intervals_part(const PlanCheckpointResult& r, Charts& charts) {
  const UncertaintySummary& u = *r.uncertainty;
  std::string s = "<h3>Prediction intervals</h3>\n";
  s += html::paragraph(fmt::format("Each figure as median [5% .. 95%] over {} samples (seed {}): every sample plans the "
                                   "checkpoint again with each uncertain input drawn from its distribution.",
                                   u.samples, u.seed),
                       "note");
  std::vector<std::vector<std::string>> rows;
  std::vector<IntervalBar> bars;
  for (const PlanFigure& f : plan_figures()) {
    const auto it = r.intervals.find(f.key);
    if (it == r.intervals.end()) continue;
    const double nominal = f.scale * nominal_of(r, f);
    const Interval v = scaled(it->second, f.scale);
    rows.push_back({f.title, fixed(nominal, f.digits), interval_cell(v, f.digits)});
    if (!f.nominal_field) bars.push_back({f.key == std::string("save_s") ? "save" : "restore", nominal, v});
  }
  s += html::table({"figure", "nominal plan", "median [5% .. 95%]"}, rows);
  if (!bars.empty())
    s += interval_chart(or_name(r) + ": save and restore times with their 90% interval", "phase",
                        "time until the last rank is done (s)", "plan", "s", bars,
                        "Save and restore times: the nominal plan (bars) and the median with the 90% interval over "
                        "the samples (error bars), seconds until the last rank is done; the overhead's interval is "
                        "drawn on the overhead chart above.",
                        charts);
  return s + inputs_table(u);
}

std::string sensitivity_part(const PlanCheckpointResult& r, Charts& charts) {
  const SensitivityResult& s = *r.sensitivity;
  std::string out = "<h3>Sensitivity: which inputs decide the answer</h3>\n";
  out += html::paragraph(
      fmt::format("Each uncertain input alone from its 5% to its 95% quantile, the others at their nominal values, "
                  "ranked by how far they move the {}. Elasticity is the % change of the figure per % change of the "
                  "input; its sign is the direction (+: the figure rises with the input, -: it falls).",
                  s.metric),
      "note");
  if (s.rows.empty()) return out + html::paragraph("No input carries an uncertainty.", "note");
  std::vector<std::string> headers{"input", "5% .. 95% quantile"};
  for (const PlanFigure& f : plan_figures()) headers.push_back(std::string(f.key) + " elasticity (% per %)");
  std::vector<std::vector<std::string>> rows;
  for (const SensitivityRow& row : s.rows) {
    std::vector<std::string> cells{row.input, row.low + " .. " + row.high};
    const auto pe = row.effects.find(r.name);
    for (const PlanFigure& f : plan_figures()) {
      const bool has = pe != row.effects.end() && pe->second.count(f.key);
      cells.push_back(has ? fmt::format("{:+.3f}", pe->second.at(f.key).elasticity) : "-");
    }
    rows.push_back(std::move(cells));
  }
  out += html::table(headers, rows, 2);
  for (const PlanFigure& f : plan_figures()) {
    if (f.key != s.metric) continue;
    const double y0 = nominal_of(r, f);
    out += tornado_chart({fmt::format("{}: sensitivity of the {}, each input alone", or_name(r), f.key), r.name,
                          s.metric, f.key, "plan", y0,
                          fixed(f.scale * y0, f.digits) + (f.scale == 100 ? " %" : " s")},
                         s, charts);
  }
  if (!s.combined.empty()) {
    out += html::paragraph(fmt::format("The top inputs together, all at the ends that lower the {}, then all at those "
                                       "that raise it:",
                                       s.metric),
                           "note");
    out += s.metric == "overhead" ? combined_table(s, "plan", "% overhead", 100, 3) : combined_table(s, "plan", "", 1, 6);
  }
  return out;
}

}  // namespace

std::string plan_uncertainty_part(const PlanCheckpointResult& r, Charts& charts) {
  std::string s;
  if (r.uncertainty) s += intervals_part(r, charts);
  if (r.sensitivity) s += sensitivity_part(r, charts);
  return s;
}

}  // namespace iowall::report
