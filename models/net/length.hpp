// Cable lengths ("2 m", "1.5 km"): units.hpp has no length type, and only the fabric
// needs one, to turn a cable into a propagation delay.
#pragma once
#include <string>

namespace iowall::net {

// Metres in `text`; false when it is not a non-negative length in m or km.
bool parse_length(const std::string& text, double& meters);

}  // namespace iowall::net
