#include "sim/plan/node_time.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "sim/plan/node_rates.hpp"

namespace iowall::plan {
namespace {

enum class Role { copy_engine, cpu, storage };

Role role_of(const std::string& phase, IoPath path) {
  if (phase == "d2h" || phase == "h2d") return Role::copy_engine;
  if (phase == "serialize_write" && path == IoPath::buffered) return Role::cpu;
  return Role::storage;
}

double node_secs(double bytes, double bw) { return bw > 0 ? bytes / bw : 0.0; }

}  // namespace

Phase node_transfer(const PlanInput& in, const RankLoad& l, Direction dir, const Stages& st) {
  const NodeSimulation& sim = *in.node_sim;
  const NodeOverrides& o = in.node_overrides;
  const NodeSpec& n = in.node;
  const StorageTarget& s = in.storage;
  const bool save = dir == Direction::save;
  Phase ph;
  ph.bytes = l.total;
  if (l.total <= 0) return ph;
  const double scale = l.rank_max / sim.rank_bytes;

  // Consecutive simulated phases of one role: one stage.
  struct Group {
    Role role;
    std::vector<const NodePhase*> phases;
    double seconds = 0;
  };
  std::vector<Group> groups;
  const std::vector<NodePhase> phases = save ? periodic_save(sim, in.new_memory_share) : sim.restore;
  for (const NodePhase& p : phases) {
    if (!(p.seconds > 0)) continue;
    const Role r = role_of(p.name, sim.path);
    if (groups.empty() || groups.back().role != r) groups.push_back({r, {}, 0});
    groups.back().phases.push_back(&p);
    groups.back().seconds += p.seconds;
  }
  double body = 0, worst = -1;
  for (const Group& g : groups) {
    std::vector<Phase::Term> terms;
    const NodePhase* longest = *std::max_element(g.phases.begin(), g.phases.end(),
                                                 [](const NodePhase* a, const NodePhase* b) { return a->seconds < b->seconds; });
    std::string names;
    for (const NodePhase* p : g.phases) names += (names.empty() ? "" : "+") + p->name;
    const std::string simulated =
        longest->limited_by.empty()
            ? fmt::format("{} on {} (simulated)", names, sim.topology)
            : fmt::format("{} on {} (simulated: {} {:.0f}%)", names, sim.topology, longest->limited_by,
                          100 * longest->utilization);
    const double sim_s = g.seconds * scale;
    switch (g.role) {
      case Role::copy_engine:
        if (save ? o.d2h_bw : o.h2d_bw) terms.push_back({"GPU copy engine", node_secs(l.rank_max, save ? n.d2h_bw : n.h2d_bw)});
        else terms.push_back({simulated, sim_s});
        break;
      case Role::cpu:
        if (o.memcpy_bw)
          terms.push_back({"CPU memcpy (one thread per rank)", node_secs(std::max(1, st.memcpys) * l.rank_max, n.memcpy_bw)});
        else terms.push_back({simulated, sim_s});
        break;
      case Role::storage:
        if (save ? o.node_bw : o.node_read_bw)
          terms.push_back({"node storage link", node_secs(l.node_max, save ? s.node_write_bw : s.node_read_bw)});
        else terms.push_back({simulated, sim_s});
        if (sim.path == IoPath::gds && o.gpu_link_bw) terms.push_back({"GPU PCIe link (GDS)", node_secs(l.rank_max, n.gpu_link_bw)});
        if (const double client = s.client_cap(); client > 0)
          terms.push_back({"storage client per rank", node_secs(l.rank_max, client)});
        break;
    }
    double m = 0;
    std::string who;
    for (const Phase::Term& t : terms) {
      ph.terms.push_back(t);
      if (t.seconds > m) m = t.seconds, who = t.name;
    }
    body += m;
    if (m > worst) worst = m, ph.bottleneck = who;
  }
  const double fixed = barrier_time(in, l.active) + s.file_latency;
  ph.last_done = fixed + body;
  // First-done: the rank with the fewest bytes, every stage linear in its bytes.
  double least = l.rank_max;
  for (const RankLoad::Class& c : l.classes) least = std::min(least, c.bytes);
  ph.first_done = std::min(fixed + body * (l.rank_max > 0 ? least / l.rank_max : 0.0), ph.last_done);
  return ph;
}

}  // namespace iowall::plan
