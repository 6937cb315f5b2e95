#include "sim/report/report_chart.hpp"

#include <fmt/format.h>

#include "sim/report/gnuplot.hpp"
#include "sim/report/html.hpp"

namespace iowall::report {
namespace {

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
}

// gnuplot names its markers and plot groups the same in every SVG ("gpPt1",
// "gnuplot_plot_1"); prefixing the ids keeps references inside each chart.
std::string inline_svg(std::string svg, const std::string& prefix) {
  const auto start = svg.find("<svg");
  svg.erase(0, start);
  for (const char* q : {"'", "\""}) {
    replace_all(svg, std::string("id=") + q, std::string("id=") + q + prefix);
    replace_all(svg, std::string("href=") + q + "#", std::string("href=") + q + "#" + prefix);
  }
  replace_all(svg, "url(#", "url(#" + prefix);
  return svg;
}

}  // namespace

std::string gp_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string gp_field(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' ? '\'' : c;
  return out + "\"";
}

std::string chart_script(const ChartSpec& spec) {
  std::string s = fmt::format("set terminal svg size 900,{} dynamic font 'sans,12' background rgb 'white'\n", spec.height) +
      "set termoption noenhanced\n"
      "set grid\n";
  s += fmt::format("set key {}\nset title {}\nset xlabel {}\nset ylabel {}\n", spec.key, gp_quote(spec.title),
                   gp_quote(spec.xlabel), gp_quote(spec.ylabel));
  if (spec.log_x) s += "set logscale x\n";
  if (spec.log_y) s += "set logscale y\n";
  s += spec.settings;
  std::string plots, keys;
  int n = 0;
  for (const Series& series : spec.series) {
    if (series.rows.empty()) continue;
    ++n;
    s += fmt::format("$s{} << EOD\n", n);
    for (const auto& row : series.rows) s += row + "\n";
    s += "EOD\n";
    plots += fmt::format("{}$s{} using {} with {} lc {} notitle", plots.empty() ? "" : ", ", n, series.columns,
                         series.style, n);
    keys += fmt::format(", keyentry with {} lc {} title {}", series.style, n, gp_quote(series.title));
  }
  if (n == 0) return "";
  return s + "plot " + plots + keys + "\n";
}

std::string Charts::figure(const ChartSpec& spec, const std::string& caption) {
  const std::string script = chart_script(spec);
  if (script.empty())
    return html::paragraph(fmt::format("No chart \"{}\": the results hold no data for it.", spec.title), "nochart");
  const SvgText t = run_gnuplot_svg(script);
  if (t.svg.empty()) {
    gnuplot_missing_ = gnuplot_missing_ || !on_path("gnuplot");
    return html::paragraph(fmt::format("No chart \"{}\": {}.", spec.title, t.note), "nochart");
  }
  const int id = ++next_;
  return fmt::format("<figure class=\"chart\" id=\"chart-{}\">\n{}<figcaption>{}</figcaption>\n</figure>\n", id,
                     inline_svg(t.svg, fmt::format("c{}-", id)), html::escape(caption));
}

}  // namespace iowall::report
