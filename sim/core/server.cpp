#include "sim/core/server.hpp"

#include <algorithm>

namespace iowall {

Server::Server(Component& owner, std::string name, int units, std::size_t queue_capacity)
    : owner_(owner), name_(std::move(name)), units_(units < 1 ? 1 : units), capacity_(queue_capacity) {
  ring_.resize(8);
  const std::string prefix = owner_.name() + "/" + name_;
  auto& stats = owner_.ctx().stats();
  stats.add(prefix + "/busy", "units", "time-weighted busy servers (utilization x units)", busy_gauge_, units_);
  stats.add(prefix + "/queue", "jobs", "time-weighted jobs waiting", queue_gauge_);
  stats.add(prefix + "/jobs", "jobs", "jobs served", jobs_);
  if (auto* t = owner_.ctx().trace()) trace_track_ = t->track(prefix);
  if (owner_.ctx().series_period().ps > 0) busy_gauge_.enable_series(owner_.ctx().series_period());
}

bool Server::submit(Time service, Time not_before_end, Started started, Notify finished) {
  if (full()) return false;
  if (count_ == ring_.size()) {
    std::vector<Job> bigger(ring_.size() * 2);
    for (std::size_t i = 0; i < count_; ++i) bigger[i] = slot(i);
    ring_.swap(bigger);
    head_ = 0;
  }
  ring_[(head_ + count_) % ring_.size()] = Job{service, not_before_end, started, finished};
  ++count_;
  queue_gauge_.set(owner_.now(), static_cast<i64>(count_));
  start_next();
  return true;
}

void Server::wait_for_space(Notify fn) {
  if (!full()) {
    fn();
    return;
  }
  waiters_.push_back(fn);
}

void Server::start_next() {
  while (busy_ < units_ && count_ > 0) {
    const Job job = slot(0);
    head_ = (head_ + 1) % ring_.size();
    --count_;
    const Time start = owner_.now();
    const Time end = std::max(start + job.service, job.not_before_end);
    ++busy_;
    busy_gauge_.set(start, busy_);
    queue_gauge_.set(start, static_cast<i64>(count_));
    jobs_.add();
    busy_time_ += end - start;
    if (trace_track_) owner_.ctx().trace()->span(trace_track_, "busy", start, end);
    const std::uint32_t slot_id = in_service_.acquire(job.finished);
    owner_.ctx().at(end, [this, slot_id] { finish_one(slot_id); });
    if (job.started) job.started(start, end);
    // A queue slot opened: let one waiter in.
    if (waiter_head_ < waiters_.size()) {
      Notify w = waiters_[waiter_head_++];
      if (waiter_head_ == waiters_.size()) {
        waiters_.clear();
        waiter_head_ = 0;
      }
      w();
    }
  }
}

void Server::finish_one(std::uint32_t slot_id) {
  const Notify finished = in_service_[slot_id];
  in_service_.release(slot_id);
  --busy_;
  busy_gauge_.set(owner_.now(), busy_);
  // Start the next job before notifying, so a job the callback submits queues behind it.
  start_next();
  if (finished) finished();
}

}  // namespace iowall
