// A topology document as people write them (topologies/*.json): name, description and
// sources first, then one line per device and per link with its keys in a fixed order
// (id, model, preset, the parameters in name order, description last; a, b, then the
// protocol object), so that a written topology reads, diffs and reviews like a hand-made one.
#pragma once
#include <string>

#include "sim/core/params.hpp"

namespace iowall {

// The text of `topology`, ending in a newline; parsing it gives `topology` back.
std::string topology_text(const Json& topology);

}  // namespace iowall
