#include "sim/run/flow_solver.hpp"

#include <algorithm>
#include <limits>
#include <queue>

namespace iowall::flow {

std::uint32_t FlowSolver::add_resource(std::string name, double capacity) {
  resources_.push_back({std::move(name), capacity});
  users_.emplace_back();
  return static_cast<std::uint32_t>(resources_.size() - 1);
}

std::uint32_t FlowSolver::add_flow(Flow f) {
  const auto id = static_cast<std::uint32_t>(flows_.size());
  for (std::uint32_t r : f.path) users_[r].push_back(id);
  flows_.push_back(std::move(f));
  return id;
}

std::vector<double> FlowSolver::fair_rates(const std::vector<std::uint32_t>& active) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> rate(flows_.size(), -1.0);  // -1: not active; >= 0: frozen at rate
  std::vector<char> is_active(flows_.size(), 0);
  for (std::uint32_t f : active) is_active[f] = 1;
  // Remaining capacity and unfrozen users per resource.
  std::vector<double> left(resources_.size());
  std::vector<std::int64_t> unfrozen(resources_.size(), 0);
  for (std::size_t r = 0; r < resources_.size(); ++r) left[r] = resources_[r].capacity > 0 ? resources_[r].capacity : kInf;
  for (std::uint32_t f : active)
    for (std::uint32_t r : flows_[f].path) ++unfrozen[r];
  // Candidate levels: each resource's fair share, each flow's own cap. A min-heap with
  // lazy entries (a resource's entry is a lower bound of its share, refreshed when popped).
  using Item = std::pair<double, std::int64_t>;  // (level, resource id >= 0 or -(flow id)-1)
  std::vector<Item> items;
  for (std::size_t r = 0; r < resources_.size(); ++r)
    if (unfrozen[r] > 0 && left[r] < kInf) items.push_back({left[r] / static_cast<double>(unfrozen[r]), static_cast<std::int64_t>(r)});
  for (std::uint32_t f : active)
    if (flows_[f].cap > 0) items.push_back({flows_[f].cap, -static_cast<std::int64_t>(f) - 1});
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap(std::greater<>{}, std::move(items));
  std::size_t remaining = active.size();
  auto freeze = [&](std::uint32_t f, double level) {
    rate[f] = level;
    --remaining;
    for (std::uint32_t r : flows_[f].path) {
      --unfrozen[r];
      // The resource's share can only rise (the flow froze at the lowest level of all),
      // so its queued entry stays a lower bound, refreshed when it comes up.
      if (left[r] < kInf) left[r] = std::max(0.0, left[r] - level);
    }
  };
  while (remaining > 0 && !heap.empty()) {
    const auto [level, who] = heap.top();
    heap.pop();
    if (who < 0) {
      const auto f = static_cast<std::uint32_t>(-who - 1);
      if (rate[f] < 0 && is_active[f]) {
        freeze(f, level);
        last_bottleneck_ = kOwnCeiling;
      }
      continue;
    }
    const auto r = static_cast<std::size_t>(who);
    if (unfrozen[r] == 0) continue;
    const double share = left[r] / static_cast<double>(unfrozen[r]);
    if (share > level * (1 + 1e-12)) {  // stale: its share rose since; queue the current one
      heap.push({share, who});
      continue;
    }
    last_bottleneck_ = resources_[r].name;
    for (std::uint32_t f : users_[r])
      if (is_active[f] && rate[f] < 0) freeze(f, share);
  }
  // Flows limited by nothing would go infinitely fast: the callers always give caps.
  for (std::uint32_t f : active)
    if (rate[f] < 0) rate[f] = kInf;
  return rate;
}

FlowResult FlowSolver::run() {
  FlowResult out;
  out.finish.assign(flows_.size(), 0.0);
  out.busy_bytes.assign(resources_.size(), 0.0);
  std::vector<double> left(flows_.size());
  std::vector<std::uint32_t> pending(flows_.size());
  for (std::uint32_t f = 0; f < flows_.size(); ++f) {
    left[f] = flows_[f].bytes;
    pending[f] = f;
  }
  // Flows in start order; the active set changes at starts and completions.
  std::sort(pending.begin(), pending.end(), [&](auto a, auto b) {
    return flows_[a].start != flows_[b].start ? flows_[a].start < flows_[b].start : a < b;
  });
  std::size_t next_start = 0;
  std::vector<std::uint32_t> active;
  double now = 0;
  bool first = true;
  while (next_start < pending.size() || !active.empty()) {
    while (next_start < pending.size() && flows_[pending[next_start]].start <= now) active.push_back(pending[next_start++]);
    if (active.empty()) {
      now = flows_[pending[next_start]].start;
      continue;
    }
    const std::vector<double> rate = fair_rates(active);
    ++out.recomputes;
    const std::string bottleneck = last_bottleneck_;
    // Advance to the next completion or start, whichever comes first.
    double dt = std::numeric_limits<double>::infinity();
    for (std::uint32_t f : active) dt = std::min(dt, left[f] / rate[f]);
    if (next_start < pending.size()) dt = std::min(dt, flows_[pending[next_start]].start - now);
    now += dt;
    const double reach = dt * (1 + tolerance_);  // within it, a flow finishes now
    std::vector<std::uint32_t> still;
    for (std::uint32_t f : active) {
      const double moved = left[f] <= rate[f] * reach ? left[f] : std::min(left[f], rate[f] * dt);
      left[f] -= moved;
      for (std::uint32_t r : flows_[f].path) out.busy_bytes[r] += moved;
      // A flow within a relative 1e-9 of its size is done (floating-point remainder).
      if (left[f] <= flows_[f].bytes * 1e-9) {
        out.finish[f] = now;
        if (first) out.first_done = now, first = false;
        out.last_done = now;
        out.bottleneck = bottleneck;
      } else {
        still.push_back(f);
      }
    }
    active.swap(still);
  }
  return out;
}

}  // namespace iowall::flow
