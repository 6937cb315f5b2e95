// The chart of a run: throughput and CPU cores busy per data path, side by side.
#pragma once
#include <string>

#include "sim/report/run_result.hpp"

namespace iowall {

std::string run_chart_script(const RunResult& result);
// Writes the SVG; returns its path or why there is none.
std::string render_run_chart(const RunResult& result, const std::string& svg_path);

}  // namespace iowall
