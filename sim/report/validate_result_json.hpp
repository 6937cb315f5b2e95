// The validation's typed result (validate_result.hpp) as the result JSON: its one writer,
// and its reader for `iowall report`.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/report/validate_result.hpp"

namespace iowall {

nlohmann::json to_json(const ValidateResult& r);
// "points" missing or not an array of objects, or a field of the wrong type: InputError
// naming `file` and the pointer. Other absent fields read as zero or empty.
ValidateResult validate_result_from_json(const nlohmann::json& j, const std::string& file);

}  // namespace iowall
