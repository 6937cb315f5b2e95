// The uncertainty parts of a result (uncertainty_result.hpp) as JSON, written by the run,
// sweep and plan writers and read back by their readers: a metric's interval as
// {"median", "low", "high"}, the sampling summary, and the sensitivity table.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/report/json_fields.hpp"
#include "sim/report/uncertainty_result.hpp"

namespace iowall {

nlohmann::json to_json(const Interval& v);
nlohmann::json to_json(const PathIntervals& v);
nlohmann::json to_json(const UncertaintySummary& u);
nlohmann::json to_json(const SensitivityResult& s);

Interval interval_from(const JsonFields& parent, const char* key);
PathIntervals path_intervals_from(const JsonFields& parent, const char* key);
UncertaintySummary uncertainty_from(const JsonFields& parent, const char* key);
SensitivityResult sensitivity_from(const JsonFields& parent, const char* key);

}  // namespace iowall
