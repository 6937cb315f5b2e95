// Runs a scenario: for each data path, a fresh simulation of the topology and the
// workload, then the metrics a person asks for (throughput, latency percentiles, CPU
// cores busy, what limited it) and every registered statistic.
#pragma once
#include <string>

#include "sim/config/scenario.hpp"
#include "sim/core/stats.hpp"

namespace iowall {

struct RunOptions {
  std::string trace_file;  // Chrome trace-event JSON of the first path, when set
  Time series_period{};    // when set, utilization time series of every resource
};

// The result document: {"iowall_result": {"kind": "run", "version"}, "iowall_version",
// "scenario", "seed", "fidelity", "topology", "topology_summary", "workload", "paths": [...], "metrics": {path: {...}}, "stats": {path: {...}}}.
Json run_scenario(const Scenario& scenario, const RunOptions& options = {});

// The busiest resource over [0, end]: the "/busy" gauge with the highest time-weighted
// utilization, as {"resource", "utilization"}; null when there is none.
Json limiting_resource(const StatRegistry& stats, Time end);

}  // namespace iowall
