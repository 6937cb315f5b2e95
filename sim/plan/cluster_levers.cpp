#include "sim/plan/cluster_levers.hpp"

#include <algorithm>
#include <functional>
#include <memory>

namespace iowall::plan {

std::vector<Lever> purchase_levers(const PlanInput& in, const std::string& fidelity, const PlanResult& base) {
  std::vector<Lever> out;
  if (!in.cluster) return out;
  const ClusterSpec& c = *in.cluster;
  struct Edit {
    const char* name;
    const char* unit;
    int units;
    std::function<void(ClusterSpec&)> apply;
  };
  std::vector<Edit> edits = {
      {"one more storage server", "server", 1, [](ClusterSpec& e) { ++e.storage.servers; }},
      {"one more drive in every server", "drive", c.storage.servers, [](ClusterSpec& e) { ++e.storage.drives; }},
      {"one more NIC port in every server", "NIC port", c.storage.servers, [](ClusterSpec& e) { ++e.storage.nics; }}};
  // An uplink more per compute leaf, while leaves have fewer uplinks than down ports.
  if (c.fabric.uplinks < c.fabric.down_ports)
    edits.push_back({"one more uplink on every compute leaf", "uplink", c.fabric.compute_leaves, [](ClusterSpec& e) {
                       e.fabric.oversubscription = static_cast<double>(e.fabric.down_ports) / (e.fabric.uplinks + 1);
                     }});
  for (const Edit& edit : edits) {
    auto edited = std::make_shared<ClusterSpec>(c);
    edit.apply(*edited);
    derive(*edited);
    PlanInput changed = in;
    changed.cluster = edited;
    // The edits change bandwidths only; the request's other storage settings (client
    // ceiling, request latency) stay.
    set_cluster_bandwidths(changed.storage, *edited);
    const PlanResult r = solve(changed, fidelity);
    Lever l;
    l.name = edit.name;
    l.unit = edit.unit;
    l.units = edit.units;
    l.save_s = r.save.last_done;
    l.restore_s = r.restore.last_done;
    l.save_saved_s = base.save.last_done - r.save.last_done;
    l.restore_saved_s = base.restore.last_done - r.restore.last_done;
    l.save_saved_per_unit_s = l.save_saved_s / l.units;
    out.push_back(l);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Lever& a, const Lever& b) { return a.save_saved_per_unit_s > b.save_saved_per_unit_s; });
  return out;
}

}  // namespace iowall::plan
