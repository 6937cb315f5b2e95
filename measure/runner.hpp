// Runs a whole measurement: checks the options and the target, prepares it, starts
// the threads together, repeats, and cleans up (also on errors and SIGINT).
#pragma once
#include "measure/options.hpp"
#include "measure/results.hpp"

namespace iowall::measure {

// Throws InputError for bad input or what this machine cannot run, RunError for
// failures while running (an interrupt included, after cleaning up).
RunInfo run_measurement(const MeasureOptions& o);

}  // namespace iowall::measure
