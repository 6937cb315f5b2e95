#include "models/rdma/queue_pair.hpp"

#include <algorithm>

namespace iowall::rdma {

void QueuePair::post(const WorkRequest& wr, Done delivered, Done completed) {
  if (outstanding_ >= depth_) {
    ++blocked_;
    waiting_.push_back({wr, delivered, completed});
    return;
  }
  start({wr, delivered, completed});
}

void QueuePair::start(const Post& p) {
  ++outstanding_;
  max_outstanding_ = std::max(max_outstanding_, outstanding_);
  const std::uint32_t id = completions_.acquire(p.completed);
  hca_.execute(p.wr, p.delivered, [this, id] {
    const Done completed = completions_[id];
    completions_.release(id);
    slot_freed();
    if (completed) completed();
  });
}

void QueuePair::slot_freed() {
  --outstanding_;
  if (waiting_.empty()) return;
  const Post next = waiting_.front();
  waiting_.pop_front();
  start(next);
}

}  // namespace iowall::rdma
