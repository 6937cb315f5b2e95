// Builds a topology from JSON and returns the InputError's text ("" if it loaded), for
// tests of the checks a topology makes when it loads.
#pragma once
#include <string>

#include "sim/config/topology.hpp"
#include "sim/core/error.hpp"
#include "sim/core/sim_context.hpp"

namespace iowall::testing {

inline std::string topology_load_error(const nlohmann::json& doc) {
  SimContext ctx(1);
  try {
    Topology t(ctx, doc, "t.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace iowall::testing
