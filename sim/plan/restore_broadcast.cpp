#include "sim/plan/restore_broadcast.hpp"

#include <algorithm>

namespace iowall::plan {

void add_broadcast(const PlanInput& in, const checkpoint::ShardPlan& sh, Phase& restore) {
  const double bw = in.node.fabric_bw;
  const double slowest = static_cast<double>(sh.rank_unwritten_max) / bw;
  const double least = static_cast<double>(sh.rank_unwritten_min) / bw;
  if (!(slowest > 0)) return;  // nothing replicated (ZeRO-3, one replica): nothing to send
  // The read's bottleneck is its largest bound; the broadcast is a stage after it.
  double longest = 0;
  for (const Phase::Term& t : restore.terms) longest = std::max(longest, t.seconds);
  restore.terms.push_back({"broadcast to the data-parallel replicas (compute fabric)", slowest});
  if (slowest > longest) restore.bottleneck = "broadcast to the data-parallel replicas (compute fabric)";
  // First done: the rank that finishes reading first, plus the least any rank receives.
  restore.first_done = std::min(restore.first_done + least, restore.last_done + slowest);
  restore.last_done += slowest;
}

}  // namespace iowall::plan
