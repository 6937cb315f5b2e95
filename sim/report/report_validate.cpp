// The report's section for one `iowall validate` result: the error summary, a row per
// measured point, and measured (median with the min-max of the repeats) against
// simulated throughput.
#include <fmt/format.h>

#include "sim/report/html.hpp"
#include "sim/report/report_sections.hpp"

namespace iowall::report {
namespace {

using nlohmann::json;

std::string gbps(const json& row, const char* key) {
  return row.contains(key) && row[key].is_number() ? fixed(row[key].get<double>() / 1e9, 3) : "-";
}

std::string summary(const char* what, const json& s) {
  if (number(s, "points") == 0) return fmt::format("{}: no simulated points.", what);
  return fmt::format("{}: {:.0f} simulated points, median |error| {:.1f} %, worst {:.1f} %; run-to-run spread of the "
                     "measurements (max-min)/median, median over those points {:.1f} %.",
                     what, number(s, "points"), 100 * number(s, "median_abs_error"), 100 * number(s, "worst_abs_error"),
                     100 * number(s, "median_spread"));
}

ChartSpec measured_vs_predicted(const json& points) {
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
    const json& p = points[i];
    if (!(number(p, "measured_median_Bps") > 0)) continue;
    measured.rows.push_back(fmt::format("{} {:.6g} {:.6g} {:.6g} {}", i, number(p, "measured_median_Bps") / 1e9,
                                        number(p, "measured_min_Bps") / 1e9, number(p, "measured_max_Bps") / 1e9,
                                        gp_field(p.value("point", "?"))));
    if (number(p, "predicted_Bps") > 0)
      (p.value("set", "") == "fit" ? fitted : held)
          .rows.push_back(fmt::format("{} {:.6g}", i, number(p, "predicted_Bps") / 1e9));
  }
  c.series = {measured, held, fitted};
  return c;
}

}  // namespace

std::string validate_section(const ResultDoc& doc, Charts& charts) {
  const json& r = doc.json;
  const json points = r.value("points", json::array());
  std::string s = fmt::format("<h2>Validation: {}</h2>\n", html::escape(r.value("full_profile", "profile")));
  s += html::facts({{"result file", doc.file},
                    {"profile", r.value("full_profile", "-")},
                    {"fit subset", r.value("fit_subset", "-")},
                    {"fidelity of the predictions", fidelity_text(r.value("fidelity", ""))},
                    {"points", fmt::format("{}", points.size())}});
  s += html::paragraph(summary("Held out", r.value("held_out", json::object())));
  s += html::paragraph(summary("In the fit subset", r.value("in_sample", json::object())), "note");
  s += charts.figure(measured_vs_predicted(points),
                     "Measured throughput (median of the repeats, bars from the slowest to the fastest repeat) and the "
                     "simulated throughput of each point, in GB/s (log scale).");
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : points) {
    const bool pred = p.contains("predicted_Bps");
    rows.push_back({p.value("point", "?"), p.value("set", "?") == "fit" ? "fit" : "held out",
                    p.contains("repeats") ? p["repeats"].dump() : "-", gbps(p, "measured_median_Bps"),
                    gbps(p, "measured_min_Bps") + " - " + gbps(p, "measured_max_Bps"),
                    fixed(100 * number(p, "spread"), 1), gbps(p, "predicted_Bps"),
                    pred ? fmt::format("{:+.1f}", 100 * number(p, "error")) : "-",
                    pred ? p.value("limited_by", "-") : p.value("method", "-")});
  }
  s += "<h3>Points</h3>\n";
  s += html::table({"point", "set", "repeats", "measured median (GB/s)", "measured min - max (GB/s)", "spread (%)",
                    "simulated (GB/s)", "error (%)", "limited by (simulated) / why not simulated"},
                   rows);
  return s;
}

}  // namespace iowall::report
