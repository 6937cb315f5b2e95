// The planner's answer for people (a short table) and for programs: the typed result
// (sim/report/plan_result.hpp) that the one JSON writer and the HTML report read.
#pragma once
#include <optional>
#include <string>

#include "sim/plan/checkpoint_planner.hpp"
#include "sim/plan/cluster_levers.hpp"
#include "sim/plan/plan_request.hpp"
#include "sim/report/plan_result.hpp"

namespace iowall::plan {

struct PlanAnswer {
  PlanResult result;
  std::optional<BandwidthAnswer> bandwidth;  // --target-overhead
  std::optional<WindowAnswer> window;        // --window
  std::string chart;                         // SVG written, or why not
  std::vector<Lever> levers;                 // --levers
};

PlanAnswer answer(const PlanRequest& q);
std::string plan_table(const PlanRequest& q, const PlanAnswer& a);
PlanCheckpointResult plan_result(const PlanRequest& q, const PlanAnswer& a);

}  // namespace iowall::plan
