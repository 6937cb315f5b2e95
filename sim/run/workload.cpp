// Busy-gauge snapshots for workload phases (sim/run/workload.hpp).
#include "sim/run/workload.hpp"

namespace iowall {

BusySnapshot busy_snapshot(const StatRegistry& stats, Time now) {
  BusySnapshot out;
  out.reserve(stats.entries().size());
  for (const StatEntry& e : stats.entries()) {
    const bool busy = e.kind == StatKind::gauge && e.path.size() >= 5 &&
                      e.path.compare(e.path.size() - 5, 5, "/busy") == 0;
    out.push_back(busy ? static_cast<const TimeWeighted*>(e.stat)->mean(Time(0), now) * now.ps_value()
                       : 0.0);
  }
  return out;
}

}  // namespace iowall
