// `iowall validate`: fits on one declared subset of the measured points and predicts
// the others by simulating them on a topology of the measured machine, so every
// held-out comparison is a real measurement against the simulator.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/calibrate.hpp"
#include "sim/report/validate_result.hpp"
#include "sim/run/uncertainty.hpp"

namespace iowall::calib {

struct PredictedPoint {
  const PointGroup* group = nullptr;
  bool fitted = false;     // in the fit subset (its error is in-sample)
  std::string method;      // "simulation", or why the point could not be predicted
  double predicted_bw = 0; // bytes/s; 0 when not predicted
  double measured_bw = 0;  // median of the repeats
  double error = 0;        // predicted / measured - 1
  double spread = 0;       // (max - min) / median of the repeats
  std::string limited_by;  // the simulator's busiest resource
  std::optional<Interval> interval;  // --uncertainty: the prediction's 90% interval, B/s
};

struct ErrorSummary {
  int points = 0;
  double median_abs = 0, worst_abs = 0;
  double median_spread = 0;  // of the same points' repeats
};

// A point's type in the per-type summaries: its transfer type, with " write" for writes
// ("cpu_only", "cpu_cached write"); kAllWrites gathers every write.
std::string point_type(const PointGroup& g);
inline constexpr char kAllWrites[] = "all writes";

// The fitted or held-out rows that were simulated; only those of `type` (a point_type, or
// kAllWrites) unless empty.
ErrorSummary summarize(const std::vector<PredictedPoint>& rows, bool fitted, const std::string& type = "");

struct ValidationResult {
  Profile fit;  // fitted on the subset only
  std::vector<PredictedPoint> rows;
  ErrorSummary held_out, in_sample;
  // Per type (point_type, and kAllWrites where writes were held out): one type that is
  // easy to predict must not hide another that is not.
  std::map<std::string, ErrorSummary> held_out_by_type;
};

// Simulates every group with the subset's fit applied to `base_topology`; `group_done`
// (optional) is called after each group (a progress display). With the subset "none",
// nothing is refitted: `carried` (required then) is applied as it is and every point is
// held out, which shows how a fit made elsewhere carries over.
// With `uncertainty` (samples > 0), every simulated point also gets the 90% interval of
// its throughput over samples of the topology's uncertain values (the fit's standard
// errors that apply_profile writes beside them; run_with_uncertainty, seeded per sample).
ValidationResult validate(const std::vector<PointGroup>& groups, const Subset& subset, const nlohmann::json& base_topology,
                          const std::string& base_file, const std::function<void()>& group_done = {},
                          const Profile* carried = nullptr, const UncertaintyOptions* uncertainty = nullptr);

// How many held-out points' 90% intervals hold their measured median: reads and writes
// apart ("" when no point has an interval).
std::string coverage_text(const ValidationResult& v);

// The scenario that simulates one measured configuration on `topology` (the profile `p`
// already applied to it by apply_profile): the measured transfer type's path with the
// profile's costs; reads long enough for a steady state, writes of the measured size made
// durable as measured.
nlohmann::json point_scenario(const PointGroup& g, const Profile& p, const nlohmann::json& topology);
// The simulated throughput (bytes/s; writes: until durable) of one measured
// configuration; `limited_by` receives the busiest resource.
double simulate_point(const PointGroup& g, const Profile& p, const nlohmann::json& topology, std::string& limited_by);

// The typed result (sim/report/validate_result.hpp) and its JSON, written by its one writer.
ValidateResult validation_result(const ValidationResult& v, const Profile& full);
nlohmann::json validation_json(const ValidationResult& v, const Profile& full);

}  // namespace iowall::calib
