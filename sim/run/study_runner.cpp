#include "sim/run/study_runner.hpp"

#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

namespace iowall {
namespace {

class Runner final : public ScenarioRunner {
public:
  Json run(const Scenario& scenario) const override { return to_json(run_scenario(scenario)); }
  Json limiting_resource(const StatRegistry& stats, Time end) const override {
    const auto lim = iowall::limiting_resource(stats, end);
    if (!lim) return nullptr;
    return {{"resource", lim->resource}, {"utilization", lim->utilization}};
  }
};

}  // namespace

const ScenarioRunner& scenario_runner() {
  static const Runner runner;
  return runner;
}

}  // namespace iowall
