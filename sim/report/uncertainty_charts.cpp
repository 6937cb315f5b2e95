#include "sim/report/uncertainty_charts.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/html.hpp"
#include "sim/report/report_sections.hpp"

namespace iowall::report {

std::string interval_cell(const Interval& v, int digits) {
  return fmt::format("{} [{} .. {}]", fixed(v.median, digits), fixed(v.low, digits), fixed(v.high, digits));
}

std::string interval_chart(const std::string& title, const std::string& xlabel, const std::string& ylabel,
                           const std::string& answer, const std::string& unit, const std::vector<IntervalBar>& bars,
                           const std::string& caption, Charts& charts) {
  ChartSpec c;
  c.title = title;
  c.xlabel = xlabel;
  c.ylabel = ylabel;
  c.settings = fmt::format("set boxwidth 0.6\nset style fill solid 0.5 border -1\nset yrange [0:*]\nset xrange [-0.6:{}]\n",
                           static_cast<double>(bars.size()) - 0.4);
  Series nominal{fmt::format("nominal {} ({})", answer, unit), "boxes", "1:2:xtic(3)", {}};
  Series band{fmt::format("median and 90% interval ({})", unit), "yerrorbars pt 7 ps 1.2 lw 2", "1:2:3:4", {}};
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const IntervalBar& b = bars[i];
    nominal.rows.push_back(fmt::format("{} {:.6g} {}", i, b.nominal, gp_field(b.label)));
    band.rows.push_back(fmt::format("{} {:.6g} {:.6g} {:.6g}", i, b.interval.median, b.interval.low, b.interval.high));
  }
  c.series = {nominal, band};
  return charts.figure(c, caption);
}

std::string tornado_chart(const TornadoSubject& t, const SensitivityResult& sens, Charts& charts) {
  const double y0 = t.nominal;
  struct Bar {
    std::string input;
    double low, high;  // % change
  };
  std::vector<Bar> bars;
  for (const SensitivityRow& row : sens.rows) {
    const auto pe = row.effects.find(t.subject);
    if (pe == row.effects.end() || !pe->second.count(t.metric) || y0 == 0) continue;
    const SensitivityEffect& e = pe->second.at(t.metric);
    const Bar b{row.input + " (" + row.low + " .. " + row.high + ")", 100 * (e.at_low / y0 - 1), 100 * (e.at_high / y0 - 1)};
    if (b.low != 0 || b.high != 0) bars.push_back(b);
  }
  std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) {
    return std::fabs(a.high - a.low) > std::fabs(b.high - b.low);
  });
  if (bars.size() > 12) bars.resize(12);
  if (bars.empty())
    return html::paragraph(
        fmt::format("{}: no uncertain input moves its {}, so there is no tornado chart.", t.subject, t.metric_words), "note");
  ChartSpec c;
  c.title = t.chart_title;
  c.xlabel = fmt::format("change of {} from the nominal {} (%)", t.metric_words, t.answer);
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
  return charts.figure(c, fmt::format("Tornado chart for {}: how far {} moves from the nominal {} ({}) "
                                      "when one input goes to its 5% or its 95% quantile, the others nominal; the widest "
                                      "bar is the input that decides the answer most.",
                                      t.subject, t.metric_words, t.answer, t.nominal_text));
}

std::string inputs_table(const UncertaintySummary& u) {
  std::string s;
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

std::string combined_table(const SensitivityResult& s, const std::string& subject_header, const std::string& unit,
                           double scale, int digits) {
  std::vector<std::vector<std::string>> comb;
  for (const SensitivityCombined& c : s.combined)
    comb.push_back({c.path, fmt::format("{}", fmt::join(c.inputs, ", ")), fixed(scale * c.at_low, digits),
                    fixed(scale * c.nominal, digits), fixed(scale * c.at_high, digits)});
  return html::table({subject_header, "inputs", fmt::format("together low ({})", unit), fmt::format("nominal ({})", unit),
                      fmt::format("together high ({})", unit)},
                     comb, 2);
}

}  // namespace iowall::report
