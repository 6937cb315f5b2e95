// Charts of the HTML report: a small description (axes with units, series with a
// legend) turned into a gnuplot script, rendered to SVG and inlined in the page.
// Each series is drawn untitled and its legend entry is a separate `keyentry`, so the
// page's self-check can tell plotted data from legend samples in the browser.
#pragma once
#include <string>
#include <vector>

namespace iowall::report {

struct Series {
  std::string title;             // legend text
  std::string style;             // gnuplot style, e.g. "linespoints pt 7" or "boxes fill solid 0.7"
  std::string columns = "1:2";   // the `using` columns
  std::vector<std::string> rows; // data lines, whitespace-separated; strings in double quotes
};

struct ChartSpec {
  std::string title, xlabel, ylabel;  // labels carry units, e.g. "I/O size (KiB)"
  bool log_x = false, log_y = false;
  int height = 460;                        // pixels (the width is 900)
  std::string key = "outside right top";  // where the legend goes (gnuplot `set key`)
  std::string settings;               // further gnuplot `set` lines
  std::vector<Series> series;
};

// Quotes text for a gnuplot single-quoted string.
std::string gp_quote(const std::string& text);
// Quotes text as a string field of a gnuplot data line.
std::string gp_field(const std::string& text);
// The whole gnuplot script (svg terminal, data inline); series without rows are left out.
std::string chart_script(const ChartSpec& spec);

// Renders the charts of one page, numbering them so that the ids inside each inline SVG
// are unique in the page.
class Charts {
public:
  // A <figure> holding the inline SVG, or a note saying why there is no chart.
  std::string figure(const ChartSpec& spec, const std::string& caption);
  bool gnuplot_missing() const { return gnuplot_missing_; }
  int count() const { return next_; }

private:
  int next_ = 0;
  bool gnuplot_missing_ = false;
};

}  // namespace iowall::report
