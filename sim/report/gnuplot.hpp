// Runs gnuplot on a script whose terminal is SVG and writes the picture atomically.
// A missing or failing gnuplot is not an error: the caller prints the returned note
// and the tables stay complete.
#pragma once
#include <string>

namespace iowall {

bool on_path(const std::string& program);

struct SvgText {
  std::string svg;   // the picture, empty when there is none
  std::string note;  // why there is none
};
// Runs the script and returns gnuplot's SVG (from stdout) or why there is none.
SvgText run_gnuplot_svg(const std::string& script);
// Returns `svg_path` when written, else one line saying why there is no chart.
std::string render_svg(const std::string& script, const std::string& svg_path);

}  // namespace iowall
