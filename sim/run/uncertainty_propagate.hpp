// Propagating input uncertainty into any answer that is a few numbers (a plan's save and
// restore times, its overhead), the way run_with_uncertainty does for a run's paths:
// N Monte Carlo samples, sample i with every input drawn at sample_uniform(seed, i, input)
// (so it depends only on the seed and i), then with --sensitivity each input alone at its
// 5% and 95% quantiles and the top few together at the ends that lower, then raise, the
// ranked figure. `evaluate` turns one set of input values into the figures; the tasks
// spread over `jobs` threads and, under mpirun, over the ranks of o.world (run_tasks:
// task i on rank i mod size), and are assembled by index, so the answer is byte-identical
// for any --jobs and any number of ranks.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/run/uncertainty.hpp"

namespace iowall {

struct PropagatedFigure {
  std::string key;  // the JSON key ("save_s")
  int digits = 9;   // decimals the interval is rounded to
};

struct Propagation {
  std::vector<Interval> intervals;             // one per figure; empty without samples
  std::optional<UncertaintySummary> summary;   // with samples
  std::optional<SensitivityResult> sensitivity;
};

// `nominal` holds the figures at every input's nominal value; `subject` names the answer
// in the sensitivity rows (as a run names its path); `ranked` is the figure the rows are
// ranked by. What `what(i)` says of a failing task is prefixed to its error.
Propagation propagate(const std::vector<UncertainInput>& inputs, const std::vector<PropagatedFigure>& figures,
                      const TaskValues& nominal, std::size_t ranked, const std::string& subject,
                      const std::function<TaskValues(const std::vector<i64>&)>& evaluate, const UncertaintyOptions& o);

// The sampling summary every uncertain answer carries: the inputs with their distributions
// and 5%/95% quantiles, and the notes on how the samples were drawn.
UncertaintySummary uncertainty_summary(const std::vector<UncertainInput>& inputs, const UncertaintyOptions& o);

}  // namespace iowall
