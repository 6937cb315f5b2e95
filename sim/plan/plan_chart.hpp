// Overhead against storage bandwidth, one curve for GDS and one for the bounce path,
// rendered to SVG by gnuplot when it is installed.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/plan/plan_request.hpp"

namespace iowall::plan {

// Overhead (fraction of wall time) of synchronous saves over GDS and over the bounce
// path, at storage bandwidths from 1/30 to 30 times the request's.
struct OverheadCurve {
  struct Point {
    double bandwidth_Bps, gds, bounce;
  };
  bool per_node = false;     // bandwidth per node, else aggregate
  double current_Bps = 0;    // the request's own bandwidth
  double total_bytes = 0;    // checkpoint size
  std::vector<Point> points;
};
OverheadCurve overhead_curve(const PlanRequest& q);

// Writes the chart to `svg_path`; returns a one-line note for the output: the path,
// or why there is no chart (gnuplot missing or failing). Never throws for a missing gnuplot.
std::string render_chart(const PlanRequest& q, const std::string& svg_path);
// The gnuplot script with its data inline (exposed for tests).
std::string chart_script(const PlanRequest& q);

}  // namespace iowall::plan
