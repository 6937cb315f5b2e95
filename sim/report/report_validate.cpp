// The report's section for one `iowall validate` result: the error summary, a row per
// measured point, and measured (median with the min-max of the repeats) against
// simulated throughput.
#include <fmt/format.h>

#include "sim/report/html.hpp"
#include "sim/report/report_sections.hpp"

namespace iowall::report {
namespace {

std::string gbps_text(double bps) { return fixed(bps / 1e9, 3); }

std::string validate_summary(const char* what, const ValidateSummary& s) {
  if (s.points == 0) return fmt::format("{}: no simulated points.", what);
  return fmt::format("{}: {} simulated points, median |error| {:.1f} %, worst {:.1f} %; run-to-run spread of the "
                     "measurements (max-min)/median, median over those points {:.1f} %.",
                     what, s.points, 100 * s.median_abs_error, 100 * s.worst_abs_error, 100 * s.median_spread);
}

ChartSpec measured_vs_predicted(const std::vector<ValidatePoint>& points) {
  ChartSpec c;
  c.title = "Validation: measured vs simulated read throughput";
  c.xlabel = "measured point";
  c.ylabel = "throughput (GB/s, log scale)";
  c.log_y = true;
  c.key = "inside top left box";  // long legend texts would squeeze the plot beside it
  c.height = 620;                         // room for the rotated point names below the plot
  c.settings = fmt::format("set xrange [-0.5:{}]\nset xtics rotate by 35 right font ',9'\nset bmargin 12\nset lmargin 12\n",
                           static_cast<double>(points.size()) - 0.5);
  Series measured{"measured: median, bar = min-max of the repeats", "yerrorbars pt 7 ps 0.8", "1:2:3:4:xtic(5)", {}};
  Series held{"simulated, held out", "points pt 5 ps 1.1", "1:2", {}};
  Series fitted{"simulated, in the fit subset", "points pt 4 ps 1.1", "1:2", {}};
  for (std::size_t i = 0; i < points.size(); ++i) {
    const ValidatePoint& p = points[i];
    if (!(p.measured_median_Bps > 0)) continue;
    measured.rows.push_back(fmt::format("{} {:.6g} {:.6g} {:.6g} {}", i, p.measured_median_Bps / 1e9,
                                        p.measured_min_Bps / 1e9, p.measured_max_Bps / 1e9,
                                        gp_field(or_text(p.point, "?"))));
    if (p.prediction && p.prediction->predicted_Bps > 0)
      (p.set == "fit" ? fitted : held).rows.push_back(fmt::format("{} {:.6g}", i, p.prediction->predicted_Bps / 1e9));
  }
  c.series = {measured, held, fitted};
  return c;
}

}  // namespace

std::string validate_section(const ResultDoc& doc, Charts& charts) {
  const ValidateResult& r = *doc.validate;
  const std::vector<ValidatePoint>& points = r.points;
  std::string s = fmt::format("<h2>Validation: {}</h2>\n", html::escape(or_text(r.full_profile, "profile")));
  s += html::facts({{"result file", doc.file},
                    {"profile", or_text(r.full_profile, "-")},
                    {"fit subset", or_text(r.fit_subset, "-")},
                    {"fidelity of the predictions", fidelity_text(r.fidelity)},
                    {"points", fmt::format("{}", points.size())}});
  s += html::paragraph(validate_summary("Held out", r.held_out));
  s += html::paragraph(validate_summary("In the fit subset", r.in_sample), "note");
  s += charts.figure(measured_vs_predicted(points),
                     "Measured throughput (median of the repeats, bars from the slowest to the fastest repeat) and the "
                     "simulated throughput of each point, in GB/s (log scale).");
  std::vector<std::vector<std::string>> rows;
  for (const ValidatePoint& p : points) {
    const auto& pred = p.prediction;
    rows.push_back({or_text(p.point, "?"), p.set == "fit" ? "fit" : "held out", fmt::format("{}", p.repeats),
                    gbps_text(p.measured_median_Bps), gbps_text(p.measured_min_Bps) + " - " + gbps_text(p.measured_max_Bps),
                    fixed(100 * p.spread, 1), pred ? gbps_text(pred->predicted_Bps) : "-",
                    pred ? fmt::format("{:+.1f}", 100 * pred->error) : "-",
                    pred ? or_text(pred->limited_by, "-") : or_text(p.method, "-")});
  }
  s += "<h3>Points</h3>\n";
  s += html::table({"point", "set", "repeats", "measured median (GB/s)", "measured min - max (GB/s)", "spread (%)",
                    "simulated (GB/s)", "error (%)", "limited by (simulated) / why not simulated"},
                   rows);
  return s;
}

}  // namespace iowall::report
