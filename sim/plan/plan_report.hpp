// The planner's answer for people (a short table) and for programs (JSON whose keys
// carry their units: _bytes, _s, _GBps, _W, _MWh).
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/plan/checkpoint_planner.hpp"
#include "sim/plan/plan_request.hpp"

namespace iowall::plan {

struct PlanAnswer {
  PlanResult result;
  std::optional<BandwidthAnswer> bandwidth;  // --target-overhead
  std::optional<WindowAnswer> window;        // --window
  std::string chart;                         // SVG written, or why not
};

PlanAnswer answer(const PlanRequest& q);
std::string plan_table(const PlanRequest& q, const PlanAnswer& a);
nlohmann::json plan_json(const PlanRequest& q, const PlanAnswer& a);

}  // namespace iowall::plan
