// The classes' queues a server keeps and what every arbitration policy shares: the
// urgent class, the drain estimate, and the policies' names (sim/core/arbitration.hpp).
#include "sim/core/arbitration.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace iowall {

void ClassQueues::resize(std::size_t classes) {
  queues_.assign(classes, {});
  waiting_.assign((classes + 63) / 64, 0);
  service_.assign(classes, Time{});
}

void ClassQueues::push(std::size_t c, const QueuedJob& job) {
  queues_[c].push_back(job);
  mark(c, true);
  service_[c] += job.service;
}

QueuedJob ClassQueues::pop(std::size_t c) {
  const QueuedJob job = queues_[c].front();
  queues_[c].pop_front();
  if (queues_[c].empty()) mark(c, false);
  service_[c] -= job.service;
  return job;
}

std::size_t ClassQueues::next_waiting(std::size_t after) const {
  const std::size_t n = queues_.size();
  // Classes after `after` first, then from 0 up to and including it.
  const auto first_from = [this](std::size_t from, std::size_t to) -> std::size_t {
    for (std::size_t w = from / 64; w * 64 < to && w < waiting_.size(); ++w) {
      std::uint64_t bits = waiting_[w];
      if (w == from / 64) bits &= ~std::uint64_t{0} << (from % 64);
      if (bits != 0) return std::min(to, w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
    }
    return to;
  };
  std::size_t c = first_from(after + 1, n);
  if (c == n) c = first_from(0, after + 1);
  return c < n ? c : 0;
}

ArbitrationPolicy::ArbitrationPolicy(std::vector<int> weights) : weights_(std::move(weights)) {
  if (weights_.empty()) weights_.push_back(1);
  for (int& w : weights_) w = std::max(w, 1);
}

bool ArbitrationPolicy::pick_urgent(const ClassQueues& q, std::size_t& pick) {
  const std::size_t urgent = std::min(static_cast<std::size_t>(std::max(urgent_, 0)), q.size());
  for (std::size_t i = 1; i <= urgent; ++i) {
    const std::size_t c = (urgent_next_ + i) % urgent;
    if (!q.empty(c)) {
      urgent_next_ = pick = c;
      return true;
    }
  }
  return false;
}

Time ArbitrationPolicy::ahead(const ClassQueues& q, std::size_t mine) const {
  Time ahead{};
  q.for_each_waiting([&](std::size_t c) { ahead += c == mine ? q.service(c) : q.front(c).service; });
  return ahead;
}

}  // namespace iowall
