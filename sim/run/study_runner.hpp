// The scenario runner as studies see it: run_scenario and limiting_resource behind the
// interface of sim/config/study.hpp, which a command passes to a study in models/ (a
// model never includes sim/run for them).
#pragma once
#include "sim/config/study.hpp"

namespace iowall {

// The one runner (it holds no state).
const ScenarioRunner& scenario_runner();

}  // namespace iowall
