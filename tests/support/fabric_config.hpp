// Fabric parameters for the net tests, read as a topology or `--param` would give them,
// at the 100 Gb/s of figures.md's fabric rows.
#pragma once
#include "models/net/experiments.hpp"

namespace iowall::testing {

inline const Bandwidth k100G = Bandwidth::Gbps(100);

inline net::FabricConfig fabric_config(Json j = Json::object()) {
  return net::read_fabric_config(Params(std::move(j), {"test", ""}), k100G);
}

}  // namespace iowall::testing
