// Overhead against storage bandwidth, one curve for GDS and one for the bounce path,
// rendered to SVG by gnuplot when it is installed.
#pragma once
#include <string>

#include "sim/plan/plan_request.hpp"

namespace iowall::plan {

// Writes the chart to `svg_path`; returns a one-line note for the output: the path,
// or why there is no chart (gnuplot missing or failing). Never throws for a missing gnuplot.
std::string render_chart(const PlanRequest& q, const std::string& svg_path);
// The gnuplot script with its data inline (exposed for tests).
std::string chart_script(const PlanRequest& q);

}  // namespace iowall::plan
