// JSON Schemas generated from the models' own parameter declarations, and validation
// of documents against them with valijson before anything is built.
#pragma once
#include <set>
#include <string>

#include "sim/config/registry.hpp"

namespace iowall {

// Keys every device object may have besides its model's parameters.
const std::set<std::string>& device_framework_keys();

Json param_schema(const ParamInfo& p);
// Schema of one model's object: its parameters plus `extra` framework properties.
Json model_schema(const ModelEntry& e, const Json& extra_properties, const std::vector<std::string>& required);
Json topology_schema();  // the whole document, with one branch per device model
Json scenario_schema();

// Validates `value` (found at `pointer` in `file`) against `schema`; throws an
// InputError naming the first violation's JSON pointer.
void validate_json(const Json& schema, const Json& value, const std::string& file, const std::string& pointer);

}  // namespace iowall
