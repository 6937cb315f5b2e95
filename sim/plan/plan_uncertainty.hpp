// Prediction intervals for `iowall plan checkpoint --uncertainty N [--sensitivity]`.
// Two kinds of planner input carry an uncertainty: a setting given with a spread or a
// range (--storage-bw "100 GB/s +- 10%", "request_latency": "20 us .. 40 us" in a plan
// file), and with --node, every value of the node's topology and of the presets it names
// that carries one (a drive's "13 GB/s (13 GB/s .. 14 GB/s)"). Each sample draws every
// input (sample i from the seed and i only, sim/run/uncertain_inputs.hpp), rebuilds the
// request from the drawn settings, re-simulates the node with the drawn topology values
// (so a sample with --node costs two node simulations), and solves the plan; the save
// time, restore time and overhead over the samples give their median and 90% interval.
// The samples spread over threads and, under mpirun, over the ranks the way a run's do
// (run_tasks in sim/run/uncertainty.hpp); every rank gets every sample's figures.
// A --cluster description's bandwidths given with a spread ("nic": "400 Gb/s +- 5%") are
// drawn too (the description read again with the drawn values), and so are the storage
// preset's values whose source gives a range (local-nvme's drive bandwidths, PresetSpread)
// while no setting replaces them; every other preset value is fixed. Without
// --uncertainty every uncertain value plans at its nominal value.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/plan/plan_request.hpp"
#include "sim/report/plan_result.hpp"
#include "sim/run/uncertainty.hpp"

namespace iowall::plan {

struct UncertainSettings {
  nlohmann::json nominal;               // the settings, each uncertain value at its nominal
  std::vector<UncertainInput> inputs;   // one per setting given with a spread, by key
};

// The settings' uncertain values (a setting whose value has the syntax of an uncertainty
// and does not parse, e.g. a spread as wide as the value, is an InputError at its origin).
UncertainSettings uncertain_settings(const nlohmann::json& settings, const std::map<std::string, std::string>& origin);

// The headline figures' intervals and, with o.sensitivity, the inputs ranked by how much
// they move the overhead, into `result` (whose nominal answer `q` gave).
void add_uncertainty(const PlanRequest& q, const UncertainSettings& settings,
                     const std::map<std::string, std::string>& origin, const UncertaintyOptions& o,
                     PlanCheckpointResult& result);

}  // namespace iowall::plan
