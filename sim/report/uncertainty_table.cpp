#include "sim/report/uncertainty_table.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace iowall {

std::string interval_text(const Interval& v, int digits) {
  return fmt::format("{:.{}f} [{:.{}f} .. {:.{}f}]", v.median, digits, v.low, digits, v.high, digits);
}

namespace {

std::string inputs_and_notes(const UncertaintySummary& u) {
  std::string out;
  if (!u.inputs.empty()) {
    out += "uncertain inputs (5% .. 95% quantile; distribution):\n";
    for (const UncertainInputSummary& in : u.inputs)
      out += fmt::format("  {}{}: {} .. {}; {}\n", in.label, in.places > 1 ? fmt::format(" ({} places)", in.places) : "",
                         in.low, in.high, in.distribution);
  }
  for (const std::string& n : u.notes) out += "note: " + n + "\n";
  return out;
}

}  // namespace

std::string plan_uncertainty_text(const PlanCheckpointResult& r, std::size_t rows) {
  std::string out;
  struct Figure {
    const char* key;
    const char* title;
  };
  static const Figure figures[] = {{"save_s", "save s"}, {"restore_s", "restore s"}, {"overhead", "overhead %"}};
  const auto shown = [](const char* key, double v) { return std::string(key) == "overhead" ? 100 * v : v; };
  if (r.uncertainty) {
    out += fmt::format("\n90% intervals over {} samples (seed {}), median [5% .. 95%]:\n", r.uncertainty->samples,
                       r.uncertainty->seed);
    for (const Figure& f : figures) {
      const auto it = r.intervals.find(f.key);
      if (it == r.intervals.end()) continue;
      const Interval v{shown(f.key, it->second.median), shown(f.key, it->second.low), shown(f.key, it->second.high)};
      out += fmt::format("  {:<12} {:.4g} [{:.4g} .. {:.4g}]\n", f.title, v.median, v.low, v.high);
    }
    out += inputs_and_notes(*r.uncertainty);
  }
  if (r.sensitivity) {
    const SensitivityResult& s = *r.sensitivity;
    out += fmt::format(
        "\nsensitivity, ranked by {}: each input alone from its 5% to its 95% quantile, the others nominal;\n"
        "elasticity = % change of the figure per % change of the input (+: the figure rises with the input)\n",
        s.metric);
    if (s.rows.empty()) return out + "  no input carries an uncertainty\n";
    std::size_t width = 10;
    for (const SensitivityRow& row : s.rows) width = std::max(width, std::min<std::size_t>(row.input.size(), 48));
    out += fmt::format("{:<{}} {:>27} {:>10} {:>10} {:>10}\n", "input", width, "5% .. 95%", "save", "restore", "overhead");
    for (std::size_t i = 0; i < s.rows.size() && i < rows; ++i) {
      const SensitivityRow& row = s.rows[i];
      out += fmt::format("{:<{}} {:>27}", row.input.substr(0, 48), width, row.low + " .. " + row.high);
      for (const Figure& f : figures) {
        double e = 0;
        for (const auto& [subject, effects] : row.effects)
          if (effects.count(f.key)) e = effects.at(f.key).elasticity;
        out += fmt::format(" {:>+10.3f}", e);
      }
      out += "\n";
    }
    if (s.rows.size() > rows) out += fmt::format("  ({} more in the JSON)\n", s.rows.size() - rows);
    for (const SensitivityCombined& c : s.combined)
      out += fmt::format("together ({}): {} {:.4g} .. {:.4g} (nominal {:.4g})\n", fmt::join(c.inputs, ", "),
                         s.metric == "overhead" ? "overhead %" : s.metric,
                         shown(s.metric.c_str(), c.at_low), shown(s.metric.c_str(), c.at_high),
                         shown(s.metric.c_str(), c.nominal));
  }
  return out;
}

std::string intervals_text(const RunResult& r) {
  if (!r.uncertainty) return "";
  const UncertaintySummary& u = *r.uncertainty;
  std::size_t width = 12;
  for (const PathResult& p : r.paths) width = std::max(width, p.label.size());
  std::string out = fmt::format("\n90% intervals over {} samples (seed {}), median [5% .. 95%]{}:\n", u.samples, u.seed,
                                u.widened ? ", widened by the corpus's error" : "");
  out += fmt::format("{:<{}} {:>24} {:>24} {:>24} {:>20} {:>28}\n", "path", width, "GB/s", "p50 us", "p99 us",
                     "CPU cores", "done s");
  for (const PathResult& p : r.paths) {
    if (!p.intervals) continue;
    const PathIntervals& v = *p.intervals;
    out += fmt::format("{:<{}} {:>24} {:>24} {:>24} {:>20} {:>28}\n", p.label, width, interval_text(v.throughput_GBps, 2),
                       interval_text(v.latency_p50_us, 1), interval_text(v.latency_p99_us, 1),
                       interval_text(v.cpu_cores_busy, 2), interval_text(v.last_done_s, 4));
  }
  return out + inputs_and_notes(u);
}

std::string sensitivity_text(const RunResult& r, std::size_t rows) {
  if (!r.sensitivity) return "";
  const SensitivityResult& s = *r.sensitivity;
  const HeadlineMetric* h = headline_metric(s.metric);
  const std::string title = h ? h->title : s.metric;
  std::string out = fmt::format(
      "\nsensitivity of {}: each input alone from its 5% to its 95% quantile, the others nominal;\n"
      "elasticity = % change of the answer per % change of the input (+: the answer rises with the input)\n",
      title);
  if (s.rows.empty()) return out + "  no input carries an uncertainty\n";
  std::size_t width = 10;
  for (const SensitivityRow& row : s.rows) width = std::max(width, std::min<std::size_t>(row.input.size(), 48));
  out += fmt::format("{:<{}} {:>27}", "input", width, "5% .. 95%");
  for (const PathResult& p : r.paths) out += fmt::format(" {:>12}", p.label.substr(0, 12));
  out += "\n";
  for (std::size_t i = 0; i < s.rows.size() && i < rows; ++i) {
    const SensitivityRow& row = s.rows[i];
    out += fmt::format("{:<{}} {:>27}", row.input.substr(0, 48), width, row.low + " .. " + row.high);
    for (const PathResult& p : r.paths) {
      const auto pe = row.effects.find(p.label);
      double e = 0;
      if (pe != row.effects.end() && pe->second.count(s.metric)) e = pe->second.at(s.metric).elasticity;
      out += fmt::format(" {:>+12.3f}", e);
    }
    out += "\n";
  }
  if (s.rows.size() > rows) out += fmt::format("  ({} more in the JSON)\n", s.rows.size() - rows);
  for (const SensitivityCombined& c : s.combined)
    out += fmt::format("together, {} ({}): {:.4g} .. {:.4g} (nominal {:.4g})\n", c.path, fmt::join(c.inputs, ", "),
                       c.at_low, c.at_high, c.nominal);
  return out;
}

}  // namespace iowall
