// The reader of result-file fields (sim/config/json_fields.hpp), and a double as the
// result JSON writes it.
#pragma once
#include <string>

#include "sim/config/json_fields.hpp"

namespace iowall {

// A double as the result JSON writes it (shortest round-trip form; NaN as null), for the
// CSV and text writers, whose figures must match the JSON's.
inline std::string json_number_text(double v) { return nlohmann::json(v).dump(); }

}  // namespace iowall
