// A small validation result (fit on one thread, predict two) made in-process, so the
// report tests need no measurement files.
#pragma once
#include <nlohmann/json.hpp>

namespace iowall::testing {

// The JSON `iowall validate --output-format json` writes for such a validation.
nlohmann::json small_validation_result();

}  // namespace iowall::testing
