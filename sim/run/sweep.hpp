// A sweep: the cartesian product of the scenario's axes (or --axis overrides), each
// point a full scenario run. Points run in parallel threads; results are assembled
// in point order, so the output does not depend on the number of threads.
#pragma once
#include <string>
#include <vector>

#include "sim/config/scenario.hpp"
#include "sim/run/runner.hpp"

namespace iowall {

// The points of a sweep, enumerated lazily: point i's values and scenario document are
// built when it runs, so a sweep holds one document per running point, not one per
// point. Point order: the first axis outermost (the last axis varies fastest).
struct SweepPoint {
  Json values;  // {pointer: value}
  Json doc;     // the scenario with those values set
};
class SweepPoints {
public:
  // Throws InputError (at `where`, `pointer`) when an axis has no values or the product
  // of the axes' sizes exceeds `max_points`.
  SweepPoints(const Scenario& sc, const std::vector<SweepAxis>& axes, std::size_t max_points, const std::string& where,
              const std::string& pointer);
  std::size_t size() const { return count_; }
  SweepPoint at(std::size_t i) const;

private:
  Json base_;
  const std::vector<SweepAxis>& axes_;
  std::size_t count_ = 1;
};
// The default cap on a sweep's points: beyond it, --max-points must say so.
inline constexpr std::size_t kDefaultMaxSweepPoints = 10'000;

// One part of a sweep: the points whose index is `index` modulo `count` (a Slurm array
// task, an MPI rank).
struct Shard {
  int index = 0, count = 1;
};
// Parses "i/N" (0 <= i < N); throws InputError naming `option`.
Shard parse_shard(const std::string& text, const std::string& option);

// Runs the shard's points with `jobs` threads; returns the typed result (its points in
// index order, each with its index in the whole sweep; shard and sweep_points set for a
// part of a sweep). The first failing point stops the others (no point starts after it)
// and is rethrown. With `uncertainty` (samples or sensitivity asked), each point is run
// with its intervals (run_with_uncertainty, its samples one after another on the point's
// thread): point i's sample j depends only on the seed and j, whatever --jobs is.
struct UncertaintyOptions;
SweepResult run_sweep(const Scenario& sc, const SweepPoints& points, int jobs, const std::string& directory,
                      Shard shard = {}, bool quiet = true, const UncertaintyOptions* uncertainty = nullptr);
// Joins shard results (their JSON, as written) into the result a serial run gives (points
// in index order); throws InputError (naming the file in `names` and the pointer) unless
// they are all the shards of one sweep.
SweepResult merge_sweeps(const std::vector<Json>& parts, const std::vector<std::string>& names);

}  // namespace iowall
