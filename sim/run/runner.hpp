// Runs a scenario: for each data path, a fresh simulation of the topology and the
// workload, then the metrics a person asks for (throughput, latency percentiles, CPU
// cores busy, what limited it) and every registered statistic.
#pragma once
#include <string>

#include "sim/config/scenario.hpp"
#include "sim/core/stats.hpp"
#include "sim/report/run_result.hpp"

namespace iowall {

struct RunOptions {
  std::string trace_file;  // Chrome trace-event JSON of every path, when set
  std::size_t trace_events = 1'000'000;  // slices the trace keeps, shared equally among the paths
  Time series_period{};    // when set, utilization time series of every resource
  bool progress = false;   // a progress line per path on stderr (when it is a terminal)
};

// The typed result (sim/report/run_result.hpp): a PathResult per data path, in the
// scenario's order; to_json (sim/report/run_result_json.hpp) writes it.
RunResult run_scenario(const Scenario& scenario, const RunOptions& options = {});

// The busiest resource over [0, end]: the "/busy" gauge with the highest time-weighted
// utilization (rounded to 4 decimals); none when there is no such gauge.
std::optional<LimitedBy> limiting_resource(const StatRegistry& stats, Time end);
// The same over [start, end] (a phase of the workload), from busy snapshots taken then
// (sim/run/workload.hpp); a resource named `skip` (a phase's own thread) is passed over.
std::optional<LimitedBy> limiting_resource(const StatRegistry& stats, const std::vector<double>& at_start,
                                           const std::vector<double>& at_end, Time start, Time end,
                                           const std::string& skip = {});

}  // namespace iowall
