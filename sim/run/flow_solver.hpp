// Flow-level simulation: flows over routes of shared resources, each resource's
// capacity shared max-min fairly among the flows crossing it (progressive filling),
// rates recomputed whenever flows finish. Time advances from one completion to the
// next, so the cost grows with the number of distinct completion times, not bytes:
// this is what answers cluster-scale questions (16,384 GPUs, thousands of targets).
// Rates and times are doubles here: a fluid model, reported in seconds.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace iowall::flow {

struct Resource {
  std::string name;
  double capacity = 0;  // bytes per second; <= 0: unlimited
};

struct Flow {
  double bytes = 0;
  double cap = 0;                   // the flow's own ceiling (B/s); <= 0: none
  double start = 0;                 // s
  std::vector<std::uint32_t> path;  // resources it crosses
};

struct FlowResult {
  std::vector<double> finish;  // per flow, s
  double first_done = 0, last_done = 0;
  std::uint64_t recomputes = 0;
  std::string bottleneck;  // the resource most often saturated at the slowest flow's end
  std::vector<double> busy_bytes;  // per resource: bytes carried
};

// The bottleneck named when a flow's own cap (Flow::cap) is what froze it last.
inline constexpr const char* kOwnCeiling = "a flow's own ceiling";

class FlowSolver {
public:
  std::uint32_t add_resource(std::string name, double capacity);
  std::uint32_t add_flow(Flow f);
  const std::vector<Resource>& resources() const { return resources_; }
  // Flows that would finish within `relative` x the step of the next completion finish
  // with it (each a little early, by at most that share of the step): fewer recomputes
  // where thousands of flows end at nearly the same time. 0 (the default): exact.
  void set_time_tolerance(double relative) { tolerance_ = relative; }
  FlowResult run();

  // Max-min fair rates of the given active flows (exposed for tests).
  std::vector<double> fair_rates(const std::vector<std::uint32_t>& active);

private:
  std::vector<Resource> resources_;
  std::vector<Flow> flows_;
  std::vector<std::vector<std::uint32_t>> users_;  // per resource: flows crossing it
  std::string last_bottleneck_;
  double tolerance_ = 0;
};

}  // namespace iowall::flow
