#include "sim/check/check_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "sim/report/html.hpp"
#include "sim/report/result_kinds.hpp"

namespace iowall::check {
namespace {

// The unit a dimension is shown in, and the factor from SI to it.
struct Shown {
  const char* unit;
  double per_si;
};
Shown shown(Dimension d) {
  switch (d) {
    case Dimension::bandwidth: return {"GB/s", 1e-9};
    case Dimension::rate: return {"k IOPS", 1e-3};
    case Dimension::time: return {"us", 1e6};
    case Dimension::bytes: return {"GB", 1e-9};
    case Dimension::count: return {"", 1};
  }
  return {"", 1};
}

std::string value(const Quantity& q) {
  const Shown s = shown(q.dim);
  const double v = q.si * s.per_si;
  const std::string n = v >= 1000 ? fmt::format("{:.0f}", v) : v >= 10 ? fmt::format("{:.1f}", v) : fmt::format("{:.3g}", v);
  return *s.unit ? n + " " + s.unit : n;
}

std::string check_pct(double e) { return fmt::format("{:+.1f}%", e * 100); }

std::string check_summary_line(const CheckResult& r) {
  return fmt::format("{} points from {} sources: median |error| {:.1f}%, worst {:.1f}%", r.points.size(), r.sources.size(),
                     r.median_abs_error * 100, r.max_abs_error * 100);
}

}  // namespace

std::string check_table(const CheckResult& r) {
  std::string s;
  std::string source;
  for (const PointResult& p : r.points) {
    if (p.source != source) {
      source = p.source;
      s += fmt::format("\n{}\n  {:<28} {:>14} {:>14} {:>8}  {}\n", source, "case", "published", "simulated", "error",
                       "limited by");
    }
    s += fmt::format("  {:<28} {:>14} {:>14} {:>8}  {}\n", p.id, value(p.published), value(p.simulated), check_pct(p.error),
                     p.limited_by.empty() ? "-" : p.limited_by);
  }
  s += fmt::format("\n{:<34} {:>6} {:>10} {:>10}\n", "source", "points", "median", "worst");
  for (const SourceSummary& x : r.sources)
    s += fmt::format("{:<34} {:>6} {:>9.1f}% {:>9.1f}%\n", x.id, x.points, x.median_abs_error * 100, x.max_abs_error * 100);
  s += check_summary_line(r) + "\n";
  return s;
}

std::string check_markdown(const CheckResult& r, const Corpus& corpus, const std::string& command) {
  std::string s = "# Accuracy against published figures\n\n";
  s += fmt::format("Regenerate: `{}`. The corpus is `validation/` (one file per source, validation/README.md); "
                   "CI fails when the median or any point gets worse than `reports/validation.json` by more than "
                   "2 points.\n\n",
                   command);
  s += "**" + check_summary_line(r) + ".**\n\n";
  s += "| source | points | median abs error | worst |\n|---|---:|---:|---:|\n";
  for (const SourceSummary& x : r.sources)
    s += fmt::format("| {} | {} | {:.1f}% | {:.1f}% |\n", x.id, x.points, x.median_abs_error * 100, x.max_abs_error * 100);
  for (const Source& src : corpus.sources) {
    s += fmt::format("\n## {}\n\n{} ({}, {}){}. {}.\n\n", src.id, src.title, src.publisher, src.year,
                     src.url.empty() ? "" : " <" + src.url + ">", src.where);
    s += fmt::format("- Hardware: {}\n- Software: {}\n", src.hardware, src.software);
    for (const std::string& a : src.assumed) s += "- Assumed: " + a + "\n";
    s += "\n| case | figure | published | simulated | error | limited by |\n|---|---|---:|---:|---:|---|\n";
    for (const PointResult& p : r.points) {
      if (p.source != src.id) continue;
      s += fmt::format("| {} | {}{} | {} | {} | {} | {} |\n", p.id, p.figure, p.note.empty() ? "" : " (" + p.note + ")",
                       p.published_text, value(p.simulated), check_pct(p.error), p.limited_by.empty() ? "-" : p.limited_by);
    }
  }
  return s;
}

namespace {

// One parity chart per kind of quantity: log axes, y = x with the +-10% and +-25% bands,
// one marker style per source.
report::ChartSpec parity(const CheckResult& r, Dimension dim) {
  report::ChartSpec c;
  const Shown u = shown(dim);
  const std::string unit = *u.unit ? std::string(" (") + u.unit + ")" : "";
  c.title = fmt::format("Simulated against published: {}", name(dim));
  c.xlabel = "published" + unit;
  c.ylabel = "simulated" + unit;
  c.log_x = c.log_y = true;
  c.key = "outside right top";
  double lo = HUGE_VAL, hi = 0;
  std::map<std::string, report::Series> by_source;
  int marker = 4;
  for (const PointResult& p : r.points) {
    if (p.published.dim != dim) continue;
    const double x = p.published.si * u.per_si, y = p.simulated.si * u.per_si;
    lo = std::min({lo, x, y});
    hi = std::max({hi, x, y});
    auto [it, added] = by_source.try_emplace(p.source);
    if (added) it->second = {p.source, fmt::format("points pt {} ps 1.2", marker++), "1:2", {}};
    it->second.rows.push_back(fmt::format("{:.6g} {:.6g}", x, y));
  }
  if (by_source.empty()) return c;
  lo /= 1.5;
  hi *= 1.5;
  const auto band = [&](const char* title, double k, const char* style) {
    return report::Series{title, style, "1:2", {fmt::format("{:.6g} {:.6g}", lo, lo * k), fmt::format("{:.6g} {:.6g}", hi, hi * k)}};
  };
  c.settings = fmt::format("set xrange [{:.6g}:{:.6g}]\nset yrange [{:.6g}:{:.6g}]\n", lo, hi, lo, hi);
  c.series.push_back(band("simulated = published", 1.0, "lines dt 1 lw 1.5"));
  c.series.push_back(band("+10%", 1.10, "lines dt 2"));
  c.series.push_back(band("-10%", 0.90, "lines dt 2"));
  c.series.push_back(band("+25%", 1.25, "lines dt 3"));
  c.series.push_back(band("-25%", 0.75, "lines dt 3"));
  for (auto& [source, series] : by_source) c.series.push_back(std::move(series));
  return c;
}

std::string section(const ResultDoc& doc, report::Charts& charts) {
  const CheckResult r = check_from_json(*doc.other, doc.file);
  std::string s = "<h2>Accuracy against published figures</h2>\n";
  s += html::paragraph(check_summary_line(r) + ". Error = simulated / published - 1.");
  std::vector<std::vector<std::string>> rows;
  for (const SourceSummary& x : r.sources)
    rows.push_back({x.id, x.title, fmt::format("{}", x.year), fmt::format("{}", x.points),
                    fmt::format("{:.1f}", x.median_abs_error * 100), fmt::format("{:.1f}", x.max_abs_error * 100)});
  s += html::table({"source", "document", "year", "points", "median |error| (%)", "worst |error| (%)"}, rows, 2);
  for (Dimension d : {Dimension::bandwidth, Dimension::rate, Dimension::time, Dimension::bytes, Dimension::count}) {
    const report::ChartSpec c = parity(r, d);
    if (!c.series.empty())
      s += charts.figure(c, fmt::format("Each marker is one published {} (x) and iowall's simulation of it (y); the "
                                        "dashed lines are +-10%, the dotted +-25%.",
                                        name(d)));
  }
  rows.clear();
  for (const PointResult& p : r.points)
    rows.push_back({p.source, p.id, p.figure, p.published_text, value(p.simulated), check_pct(p.error),
                    p.limited_by.empty() ? "-" : p.limited_by});
  s += "<h3>Points</h3>\n";
  s += html::table({"source", "case", "figure", "published", "simulated", "error", "limited by (simulated)"}, rows, 3);
  return s;
}

[[maybe_unused]] const report::ResultKindRegistrar kCheckKind{
    "check", {[](const Json& j, const std::string& file) { (void)check_from_json(j, file); }, section}};

}  // namespace
}  // namespace iowall::check
