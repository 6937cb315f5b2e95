// Reading a checkpoint-planning question from flags or a scenario file. Both become
// one flat JSON object of settings (snake_case keys; flag --storage-bw is key
// storage_bw); physical quantities carry their units ("200 GB/s", "50000 h", "5 MW").
// Errors name the flag, or the file and JSON pointer, and end the program with exit 2.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/plan/plan_types.hpp"

namespace iowall::plan {

struct PlanRequest {
  std::string name = "checkpoint";
  PlanInput input;
  std::string fidelity = "analytical";
  std::optional<double> target_overhead;  // fraction of wall time
  std::optional<double> window;           // s
  double server_bw = 0;                   // B/s per server (or SSD) for counts; 0 = the target's
  bool levers = false;                    // with a cluster: what one more of each part buys
  nlohmann::json settings;                // what was asked, as given (echoed in the JSON output)
};

// How --node's simulation is had: simulate_node (cached) unless a caller draws the node's
// uncertain inputs per sample (sim/plan/plan_uncertainty.hpp).
using NodeSimulator = std::function<std::shared_ptr<const NodeSimulation>(const std::string& topology, IoPath path,
                                                                          double rank_bytes)>;

// How a --cluster description is had: as read, unless a caller draws its uncertain
// bandwidths per sample (this edits the description read, before the plan uses it).
using ClusterEdit = std::function<void(ClusterSpec&)>;

// `origin` maps a key to where it came from: "--flag" or "FILE#/pointer".
PlanRequest request_from_settings(const nlohmann::json& settings, const std::map<std::string, std::string>& origin,
                                  const NodeSimulator& node_simulator = {}, const ClusterEdit& cluster_edit = {});
// The settings of a checkpoint scenario file ({"name", "description", "plan": {...}}),
// after `overrides` (POINTER=VALUE, as --set gives them) are applied to the document;
// `origin` learns where each key came from and `name` the scenario's name.
nlohmann::json settings_from_file(const std::string& file, const std::vector<std::string>& overrides,
                                  std::map<std::string, std::string>& origin, std::string& name);

// The keys a settings object may hold, with a one-line description each (for --help and errors).
const std::map<std::string, std::string>& setting_keys();

// "50000 h" as seconds: like parse_time, for durations past the picosecond range.
bool parse_long_time(const std::string& text, double& seconds, std::string& error);

}  // namespace iowall::plan
