// A sweep: the cartesian product of the scenario's axes (or --axis overrides), each
// point a full scenario run. Points run in parallel threads; results are assembled
// in point order, so the output does not depend on the number of threads.
#pragma once
#include <string>
#include <vector>

#include "sim/config/scenario.hpp"
#include "sim/run/runner.hpp"

namespace iowall {

// The scenario documents of every point, with the values each point takes.
struct SweepPoint {
  Json values;  // {pointer: value}
  Json doc;     // the scenario with those values set
};
std::vector<SweepPoint> sweep_points(const Scenario& sc, const std::vector<SweepAxis>& axes);

// Runs points [begin, end) with `jobs` threads; returns {"scenario", "points": [...]}.
Json run_sweep(const Scenario& sc, const std::vector<SweepAxis>& axes, int jobs, const std::string& directory);

}  // namespace iowall
