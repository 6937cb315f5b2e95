#include "sim/core/server.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace iowall {

Arbitration arbitration_from_name(const std::string& name) {
  if (name == "fifo") return Arbitration::fifo;
  if (name == "rr") return Arbitration::round_robin;
  if (name == "wrr") return Arbitration::weighted_round_robin;
  if (name == "wfq") return Arbitration::weighted_fair;
  if (name == "priority") return Arbitration::strict_priority;
  throw std::invalid_argument(name);
}

const char* arbitration_name(Arbitration a) {
  switch (a) {
    case Arbitration::fifo: return "fifo";
    case Arbitration::round_robin: return "rr";
    case Arbitration::weighted_round_robin: return "wrr";
    case Arbitration::weighted_fair: return "wfq";
    case Arbitration::strict_priority: return "priority";
  }
  return "?";
}

Server::Server(Component& owner, std::string name, int units, std::size_t queue_capacity)
    : owner_(owner), name_(std::move(name)), units_(units < 1 ? 1 : units), capacity_(queue_capacity) {
  const std::string prefix = owner_.name() + "/" + name_;
  auto& stats = owner_.ctx().stats();
  stats.add(prefix + "/busy", "units", "time-weighted busy servers (utilization x units)", busy_gauge_, units_);
  stats.add(prefix + "/queue", "jobs", "time-weighted jobs waiting", queue_gauge_);
  stats.add(prefix + "/jobs", "jobs", "jobs served", jobs_);
  if (auto* t = owner_.ctx().trace()) trace_track_ = t->track(owner_.name(), name_);
  if (owner_.ctx().series_period().ps > 0) busy_gauge_.enable_series(owner_.ctx().series_period());
}

void Server::set_arbitration(Arbitration policy, std::vector<int> weights) {
  policy_ = policy;
  weights_ = std::move(weights);
  if (weights_.empty()) weights_.push_back(1);
  for (int& w : weights_) w = std::max(w, 1);
  classes_.assign(weights_.size(), {});
  waiting_.assign((weights_.size() + 63) / 64, 0);
  class_service_.assign(weights_.size(), Time{});
  last_finish_.assign(weights_.size(), 0);
}

void Server::retire_quiet(Time now) {
  if (quiet_release_ && release_at_ <= now) {
    quiet_release_ = false;
    --busy_;  // the gauge applies its own pending change
  }
}

void Server::schedule_quiet_release() {
  if (!quiet_release_) return;
  quiet_release_ = false;
  const std::uint32_t none = in_service_.acquire({});
  owner_.ctx().at(release_at_, [this, none] { finish_one(none); });
}

bool Server::submit(Time service, Time not_before_end, Started started, Notify finished, int job_class) {
  if (full()) return false;
  retire_quiet(owner_.now());
  schedule_quiet_release();  // still busy: the new job waits for the release
  if (policy_ != Arbitration::fifo) {
    const auto c = static_cast<std::size_t>(std::clamp(job_class, 0, static_cast<int>(classes_.size()) - 1));
    Job job{service, not_before_end, started, finished, 0};
    if (policy_ == Arbitration::weighted_fair) {
      // Self-clocked fair queueing: finish tag = max(system virtual time, the class's
      // last tag) + service / weight.
      last_finish_[c] = std::max(virtual_time_, last_finish_[c]) + service.ps / weights_[c];
      job.finish_tag = last_finish_[c];
    }
    classes_[c].push_back(job);
    mark_waiting(c, true);
    class_service_[c] += service;
    ++count_;
    queued_service_ += service;
    queue_gauge_.set(owner_.now(), static_cast<i64>(count_));
    start_next();
    return true;
  }
  if (count_ == 0 && busy_ < units_) {  // nothing to arbitrate: start it now
    Job job{service, not_before_end, started, finished};
    begin(job);
    return true;
  }
  fifo_.push_back(Job{service, not_before_end, started, finished});
  ++count_;
  queued_service_ += service;
  queue_gauge_.set(owner_.now(), static_cast<i64>(count_));
  start_next();
  return true;
}

void Server::charge(Time service) {
  if (busy_at(owner_.now()) < units_ && count_ == 0)
    busy_time_ += service;  // an idle unit absorbs it
  else
    charged_ += service;    // the next job to start takes it on (and its busy time)
}

Time Server::drain_time(int job_class) const {
  const Time now = owner_.now();
  const Time free_at = busy_at(now) < units_ ? now : std::max(now, last_release_);
  Time ahead = queued_service_;
  if (policy_ != Arbitration::fifo && !classes_.empty() && count_ > 0) {
    const auto mine = static_cast<std::size_t>(std::clamp(job_class, 0, static_cast<int>(classes_.size()) - 1));
    ahead = Time{};
    for (std::size_t w = 0; w < waiting_.size(); ++w) {
      for (std::uint64_t bits = waiting_[w]; bits != 0; bits &= bits - 1) {
        const std::size_t c = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
        if (policy_ == Arbitration::strict_priority) {
          if (c >= mine) ahead += class_service_[c];  // its own class and the ones above
        } else if (c == mine) {
          ahead += class_service_[c];
        } else {
          ahead += classes_[c].front().service;  // round-robin: one job of each other class first
        }
      }
    }
  }
  return free_at + Time((ahead.ps + charged_.ps) / units_);
}

void Server::wait_for_space(Notify fn) {
  if (!full()) {
    fn();
    return;
  }
  waiters_.push_back(fn);
}

bool Server::pop_next(Job& job) {
  if (count_ == 0) return false;
  --count_;
  if (policy_ == Arbitration::fifo) {
    job = fifo_.front();
    fifo_.pop_front();
    return true;
  }
  std::size_t pick = 0;
  if (!pick_urgent(pick)) pick = pick_by_policy();
  job = classes_[pick].front();
  classes_[pick].pop_front();
  if (classes_[pick].empty()) mark_waiting(pick, false);
  class_service_[pick] -= job.service;
  return true;
}

bool Server::pick_urgent(std::size_t& pick) {
  const std::size_t urgent = std::min(static_cast<std::size_t>(std::max(urgent_, 0)), classes_.size());
  for (std::size_t i = 1; i <= urgent; ++i) {
    const std::size_t c = (urgent_next_ + i) % urgent;
    if (!classes_[c].empty()) {
      urgent_next_ = pick = c;
      return true;
    }
  }
  return false;
}

std::size_t Server::pick_by_policy() {
  const std::size_t n = classes_.size();
  std::size_t pick = 0;
  switch (policy_) {
    case Arbitration::strict_priority:
      for (std::size_t c = n; c-- > 0;)
        if (!classes_[c].empty()) {
          pick = c;
          break;
        }
      break;
    case Arbitration::weighted_fair: {
      i64 best = INT64_MAX;
      for (std::size_t c = 0; c < n; ++c)
        if (!classes_[c].empty() && classes_[c].front().finish_tag < best) {
          best = classes_[c].front().finish_tag;
          pick = c;
        }
      virtual_time_ = best;
      break;
    }
    case Arbitration::weighted_round_robin:
      // Stay on a class for `weight` jobs in a row while it has work.
      if (wrr_credit_ > 0 && !classes_[rr_next_].empty()) {
        pick = rr_next_;
        --wrr_credit_;
        break;
      }
      [[fallthrough]];
    default:
      pick = next_waiting(rr_next_);
      rr_next_ = pick;
      wrr_credit_ = weights_[pick] - 1;
      break;
  }
  return pick;
}

std::size_t Server::next_waiting(std::size_t after) const {
  const std::size_t n = classes_.size();
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

void Server::start_next() {
  Job job;
  while (busy_ < units_ && pop_next(job)) {
    queued_service_ -= job.service;
    queue_gauge_.set(owner_.now(), static_cast<i64>(count_));
    begin(job);
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

void Server::begin(Job& job) {
  const Time start = owner_.now();
  job.service += charged_;
  charged_ = Time{};
  // The unit is busy for the job's own service time; the job ends no earlier than
  // `not_before_end` (cut-through: the last byte has to arrive first), but the unit
  // may serve the next job meanwhile, as interleaved packets would share a link.
  const Time release = start + job.service;
  const Time end = std::max(release, job.not_before_end);
  last_release_ = std::max(last_release_, release);
  ++busy_;
  const bool quiet = units_ == 1 && !job.finished && count_ == 0;
  if (quiet)
    busy_gauge_.set_until(start, busy_, release, busy_ - 1);
  else
    busy_gauge_.set(start, busy_);
  jobs_.add();
  busy_time_ += job.service;
  if (trace_track_) owner_.ctx().trace()->span(trace_track_, "busy", start, release);
  if (quiet) {
    quiet_release_ = true;
    release_at_ = release;
  } else if (end == release) {
    const std::uint32_t slot_id = in_service_.acquire(job.finished);
    owner_.ctx().at(release, [this, slot_id] { finish_one(slot_id); });
  } else {
    const std::uint32_t none = in_service_.acquire({});
    owner_.ctx().at(release, [this, none] { finish_one(none); });
    if (job.finished) {
      const std::uint32_t late = in_service_.acquire(job.finished);
      owner_.ctx().at(end, [this, late] {
        const Notify f = in_service_[late];
        in_service_.release(late);
        f();
      });
    }
  }
  if (job.started) job.started(start, end);
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
