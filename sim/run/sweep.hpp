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

// One part of a sweep: the points whose index is `index` modulo `count` (a Slurm array
// task, an MPI rank).
struct Shard {
  int index = 0, count = 1;
};
// Parses "i/N" (0 <= i < N); throws InputError naming `option`.
Shard parse_shard(const std::string& text, const std::string& option);

// Runs the shard's points with `jobs` threads; returns {"scenario", "points": [...]},
// each point with its "index" in the whole sweep.
Json run_sweep(const Scenario& sc, const std::vector<SweepAxis>& axes, int jobs, const std::string& directory,
               Shard shard = {}, bool quiet = true);
// Joins shard results into the document a serial run gives (points in index order);
// throws InputError when they are not shards of one sweep.
Json merge_sweeps(const std::vector<Json>& parts, const std::string& where);

}  // namespace iowall
