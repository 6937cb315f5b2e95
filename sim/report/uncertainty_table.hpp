// The uncertainty parts of a run as text: the 90% interval of each headline metric per
// data path, the uncertain inputs, and the sensitivity ranking (elasticity: % answer per
// % input, with its direction), for the text tables of `iowall run`, `iowall sweep` and `iowall plan checkpoint`.
#pragma once
#include <string>

#include "sim/report/plan_result.hpp"
#include "sim/report/run_result.hpp"

namespace iowall {

// "" when the run has no intervals.
std::string intervals_text(const RunResult& r);
// "" when the run has no sensitivity table; `rows` caps the inputs listed.
std::string sensitivity_text(const RunResult& r, std::size_t rows = 10);
// The same for a checkpoint plan: save, restore and overhead intervals, the inputs, and
// the ranking by the overhead with each figure's elasticity; "" without either.
std::string plan_uncertainty_text(const PlanCheckpointResult& r, std::size_t rows = 10);
// "median [low .. high]" with `digits` decimals.
std::string interval_text(const Interval& v, int digits);

}  // namespace iowall
