// What buying one more of each part of a described cluster does to the checkpoint: a
// storage server, a drive in every server, a NIC port in every server, an uplink on every
// compute leaf. Each lever is the same question asked again on the edited cluster (at the
// request's fidelity), so it moves the answer only where that part binds; ranked by the
// save time one part buys back.
#pragma once
#include <string>
#include <vector>

#include "sim/plan/checkpoint_planner.hpp"

namespace iowall::plan {

struct Lever {
  std::string name;      // "one more storage server", ...
  std::string unit;      // what one part is: server, drive, NIC port, uplink
  int units = 0;         // parts bought
  double save_s = 0, restore_s = 0;              // last-done with the parts
  double save_saved_s = 0, restore_saved_s = 0;  // against the cluster as described
  double save_saved_per_unit_s = 0;
};

// The levers of `in.cluster` (empty without one), best first (most save time per part).
std::vector<Lever> purchase_levers(const PlanInput& in, const std::string& fidelity, const PlanResult& base);

}  // namespace iowall::plan
