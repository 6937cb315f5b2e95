// Propagating input uncertainty into a run's answer (Monte Carlo), and ranking the inputs
// by how much they move it (one at a time, then the top few together). Every sample is a
// full run of the scenario with each uncertain input (sim/run/uncertain_inputs.hpp) drawn
// from its distribution; the answer is the nominal run, with the median and the 90%
// interval (5th to 95th percentile) of each headline metric over the samples beside it.
// The runs spread over `jobs` threads and, under mpirun, over the ranks (run i on rank
// i mod size); sample i's draws depend only on the seed and i, and results are assembled
// by index, so the output is byte-identical for any --jobs and any number of ranks.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>

#include "sim/report/uncertainty_result.hpp"
#include "sim/run/mpi_ranks.hpp"
#include "sim/run/runner.hpp"
#include "sim/run/uncertain_inputs.hpp"

namespace iowall {

struct UncertaintyOptions {
  std::size_t samples = 0;     // Monte Carlo samples; 0: none
  std::uint64_t seed = 1;      // the draws' seed (not the simulation's)
  bool sensitivity = false;    // one at a time, then the top `together` together
  std::size_t together = 3;
  int jobs = 1;
  mpi::World world;
  std::optional<Widening> widen;  // widen each interval by the corpus's error for its kind
  bool quiet = true;              // no progress line
};

// The nominal run of `sc` (with `run_options`) and what `o` asks for beside it. Throws the
// failure of the lowest-numbered run that failed (naming the sample or the varied input).
RunResult run_with_uncertainty(const Scenario& sc, const UncertaintyOptions& o, const RunOptions& run_options = {});

// Runs `count` tasks over `jobs` threads and the ranks of `world`; task i's result is
// make(i) run and reduced to numbers by `reduce`. Every rank gets every result, in index
// order. A failure is rethrown on every rank (the lowest-numbered one), its message
// prefixed with what(i).
using TaskValues = std::vector<double>;
std::vector<TaskValues> run_tasks(std::size_t count, const std::function<TaskValues(std::size_t)>& task,
                                  const std::function<std::string(std::size_t)>& what, int jobs, const mpi::World& world,
                                  bool quiet, const char* progress_label);

// What task t is, for run_tasks's messages: one of the `samples` draws, or after them one
// input at its 5% or 95% quantile (two tasks per input, in input order).
std::string uncertainty_task_label(std::size_t t, std::size_t samples, std::uint64_t seed,
                                   const std::vector<UncertainInput>& inputs);

}  // namespace iowall
