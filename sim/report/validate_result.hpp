// The result of `iowall validate` as typed values: the fit subset and the profile fitted
// on it, the error summaries (held out, in sample, held out per transfer type) and a row
// per measured point with its simulated prediction when there is one. measure/ fills it;
// validate_result_json.hpp writes it as the result JSON and reads such a file back; the
// HTML report reads these structs.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/uncertainty_result.hpp"

namespace iowall {

// Over the simulated points of one set: |predicted / measured - 1| and the measurements'
// run-to-run spread (max - min) / median.
struct ValidateSummary {
  int points = 0;
  double median_abs_error = 0, worst_abs_error = 0, median_spread = 0;
  bool operator==(const ValidateSummary&) const = default;
};

struct ValidatePrediction {
  std::string predicted;     // the bandwidth as text with its unit
  double predicted_Bps = 0;
  double error = 0;          // predicted / measured - 1
  std::string limited_by;    // the simulator's busiest resource
  // --uncertainty N: the 90% interval (B/s) over samples of the topology's uncertain values
  // (the fit's standard errors), and whether it holds the measured median.
  std::optional<Interval> interval_Bps;
  bool operator==(const ValidatePrediction&) const = default;
};

struct ValidatePoint {
  std::string point;         // the measured configuration, e.g. "cpu_only io_uring 4 KiB qd1 t1"
  std::string set;           // "fit" or "held_out"
  std::string method;        // how it was predicted, or why it was not
  std::uint64_t repeats = 0;
  std::string measured_median, measured_min, measured_max;  // as text with units
  double spread = 0;
  double measured_median_Bps = 0, measured_min_Bps = 0, measured_max_Bps = 0;
  std::optional<ValidatePrediction> prediction;  // none: not simulated (method says why)
  bool operator==(const ValidatePoint&) const = default;
};

struct ValidateResult {
  std::string fidelity;       // of the predictions
  std::string fit_subset;
  nlohmann::json fit = nlohmann::json::object();  // the profile fitted on the subset, as a profile file holds it
  std::string full_profile;   // the name of the profile the points came with
  ValidateSummary held_out, in_sample;
  std::map<std::string, ValidateSummary> held_out_by_type;
  std::vector<ValidatePoint> points;
  bool operator==(const ValidateResult&) const = default;
};

}  // namespace iowall
