// The checkpoint plan's typed result (plan_result.hpp) as the result JSON, whose keys carry
// their units (_bytes, _s, _Bps, _W): its one writer, and its reader for `iowall report`.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/report/plan_result.hpp"

namespace iowall {

nlohmann::json to_json(const PlanCheckpointResult& r);
// A missing "save" or "restore", or a field of the wrong type: InputError naming `file`
// and the pointer. Other absent fields read as zero or empty.
PlanCheckpointResult plan_result_from_json(const nlohmann::json& j, const std::string& file);

}  // namespace iowall
