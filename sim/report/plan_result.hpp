// The result of `iowall plan checkpoint` as typed values: the request as given, the
// checkpoint's size, the save / flush / restore phases with their bottlenecks, failures
// and availability, the inverse answers, and the overhead-vs-bandwidth curve. The planner
// (sim/plan) fills it from its answer; plan_result_json.hpp writes it as the result JSON
// and reads such a file back; the HTML report reads these structs. SI doubles (bytes,
// seconds, bytes per second, watts), as the planner computes them.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/uncertainty_result.hpp"

namespace iowall {

// One transfer phase over all ranks: done when the slowest rank is.
struct PlanPhaseResult {
  double bytes = 0, first_done_s = 0, last_done_s = 0;
  std::string bottleneck;                // the bound that set last_done_s
  std::map<std::string, double> bounds_s;  // every lower bound considered, by name
  bool operator==(const PlanPhaseResult&) const = default;
};

struct PlanStateResult {
  double params = 0;
  int weights = 0, master = 0, moments = 0, gradients = 0, saved = 0;  // bytes per parameter
  double total_bytes = 0;
  int writers = 0, nodes = 0;
  double rank_max_bytes = 0, node_max_bytes = 0, training_state_per_gpu_bytes = 0;
  bool operator==(const PlanStateResult&) const = default;
};

struct PlanFailuresResult {
  double mttf_s = 0, mtbf_s = 0, young_interval_s = 0, daly_interval_s = 0, interval_s = 0, recovery_s = 0;
  double waste_first_order = 0;
  bool operator==(const PlanFailuresResult&) const = default;
};

struct PlanPerDayResult {
  double gpu_hours_lost = 0, gpu_hours_checkpoint = 0, gpu_hours_rework = 0;
  double mwh_lost = 0, mwh_checkpoint = 0, mwh_rework = 0;
  bool operator==(const PlanPerDayResult&) const = default;
};

// --target-overhead: the storage bandwidth that reaches it, or why none does.
// What the inverse answer means in a described cluster's parts (--cluster): its servers
// (each with its drives and NIC ports) and the storage leaves that hold them.
struct PlanPurchase {
  int servers = 0, drives = 0, nic_ports = 0, storage_leaves = 0;
  bool operator==(const PlanPurchase&) const = default;
};
// One purchase lever of a described cluster (sim/plan/cluster_levers.hpp).
struct PlanLever {
  std::string name, unit;
  int units = 0;
  double save_s = 0, restore_s = 0, save_saved_s = 0, restore_saved_s = 0, save_saved_per_unit_s = 0;
  bool operator==(const PlanLever&) const = default;
};
struct PlanInverseBandwidth {
  double target_overhead = 0;
  bool per_node = false;
  std::optional<double> bandwidth_Bps;  // none: out of reach
  double units = 0;
  std::string unit;
  double floor_overhead = 0;
  std::string floor_bottleneck;
  std::optional<PlanPurchase> purchase;  // with a cluster description
  bool operator==(const PlanInverseBandwidth&) const = default;
};

// --window: the largest model whose save fits it.
struct PlanInverseWindow {
  double window_s = 0;
  std::int64_t params = 0;
  double total_bytes = 0, save_s = 0, training_state_per_gpu_bytes = 0;
  bool operator==(const PlanInverseWindow&) const = default;
};

// Checkpoint overhead against storage write bandwidth, for GDS and the bounce path.
struct PlanOverheadCurve {
  struct Point {
    double bandwidth_Bps = 0, gds_overhead = 0, bounce_overhead = 0;
    bool operator==(const Point&) const = default;
  };
  bool per_node = false;
  double current_bandwidth_Bps = 0;
  std::vector<Point> points;
  bool operator==(const PlanOverheadCurve&) const = default;
};

// --node: the node's simulation the save and restore phases came from.
struct PlanNodeResult {
  struct Phase {
    std::string name;
    double seconds = 0;
    std::string limited_by;
    double utilization = 0;
    bool operator==(const Phase&) const = default;
  };
  std::string topology, path;
  int gpus = 0;
  double rank_bytes = 0;
  std::vector<Phase> save, restore;
  double save_s = 0, restore_s = 0;
  std::vector<Phase> first_save;  // buffered: the first save in a process (0, empty: none)
  double first_save_s = 0;
  // buffered: a periodic save, its bytes' memory kept from the last save or new by the share.
  std::vector<Phase> periodic_save;
  double periodic_save_s = 0, new_memory_share = 0;
  std::string new_memory_from;
  bool operator==(const PlanNodeResult&) const = default;
};

struct PlanCheckpointResult {
  std::string name, fidelity;
  nlohmann::json settings = nlohmann::json::object();  // the request, as given
  std::vector<std::string> storage_notes;
  PlanStateResult state;
  std::optional<PlanNodeResult> node;
  PlanPhaseResult save, restore;
  std::optional<PlanPhaseResult> flush;  // async saves: the background write from host memory
  double stall_s = 0;
  PlanFailuresResult failures;
  double availability = 0, availability_no_failures = 0, overhead = 0;
  PlanPerDayResult per_day;
  double cluster_power_W = 0, power_wasted_W = 0;
  std::vector<std::string> warnings;
  std::optional<PlanInverseBandwidth> inverse_bandwidth;
  std::optional<PlanInverseWindow> inverse_window;
  std::vector<PlanLever> levers;  // best first; empty unless asked
  std::optional<PlanOverheadCurve> overhead_vs_bandwidth;
  std::string chart;  // the SVG written, or why not; empty: none asked for
  // --uncertainty N: the 90% interval of save_s, restore_s and overhead over the samples;
  // --sensitivity: the inputs ranked by how much they move the overhead (empty without).
  std::map<std::string, Interval> intervals;
  std::optional<UncertaintySummary> uncertainty;
  std::optional<SensitivityResult> sensitivity;
  bool operator==(const PlanCheckpointResult&) const = default;
};

}  // namespace iowall
