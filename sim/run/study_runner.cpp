#include "sim/run/study_runner.hpp"

#include "sim/run/runner.hpp"

namespace iowall {
namespace {

class Runner final : public ScenarioRunner {
public:
  Json run(const Scenario& scenario) const override { return run_scenario(scenario); }
  Json limiting_resource(const StatRegistry& stats, Time end) const override {
    return iowall::limiting_resource(stats, end);
  }
};

}  // namespace

const ScenarioRunner& scenario_runner() {
  static const Runner runner;
  return runner;
}

}  // namespace iowall
