#include "sim/core/server.hpp"

#include <algorithm>
#include <stdexcept>

namespace iowall {

Server::Server(Component& owner, std::string name, int units, std::size_t queue_capacity)
    : owner_(owner), name_(std::move(name)), units_(units < 1 ? 1 : units), capacity_(queue_capacity) {
  const std::string prefix = owner_.name() + "/" + name_;
  auto& stats = owner_.ctx().stats();
  stats.add(prefix + "/busy", "units", "time-weighted busy servers (utilization x units)", busy_gauge_, units_);
  stats.add(prefix + "/queue", "jobs", "time-weighted jobs waiting", queue_gauge_);
  stats.add(prefix + "/jobs", "jobs", "jobs served", jobs_);
  if (owner_.ctx().trace())
    tracing_.reset(new Tracing{name_, std::vector<int>(static_cast<std::size_t>(units_), 0),
                               std::vector<Time>(static_cast<std::size_t>(units_), Time{})});
  if (owner_.ctx().series_period().is_positive()) busy_gauge_.enable_series(owner_.ctx().series_period());
}

void Server::set_carries(const std::string& what) {
  if (tracing_) tracing_->carries = what;
}

void Server::trace_job(Time start, Time release) {
  // A unit is free when its latest job has released it. One always is: a job starts only
  // while fewer than `units_` jobs hold a unit, and a unit is held until its release.
  Tracing& t = *tracing_;
  std::size_t unit = 0;
  while (unit < t.free_at.size() && t.free_at[unit] > start) ++unit;
  if (unit == t.free_at.size())  // (not reached, by the above) the unit that frees first
    unit = static_cast<std::size_t>(std::min_element(t.free_at.begin(), t.free_at.end()) - t.free_at.begin());
  t.free_at[unit] = release;
  Trace& trace = *owner_.ctx().trace();
  if (t.tracks[unit] == 0)
    t.tracks[unit] = trace.track(owner_.name(), units_ == 1 ? name_ : name_ + " #" + std::to_string(unit), t.carries);
  trace.span(t.tracks[unit], start, release);
}

void Server::set_arbitration(Arbitration policy, std::vector<int> weights) {
  policy_ = make_arbitration(policy, std::move(weights));
  if (!policy_) return;
  policy_->set_urgent_classes(urgent_);
  classes_.resize(policy_->classes());
}

void Server::set_urgent_classes(int n) {
  urgent_ = n;
  if (policy_) policy_->set_urgent_classes(n);
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
  if (policy_) {
    const auto c = static_cast<std::size_t>(std::clamp(job_class, 0, static_cast<int>(classes_.size()) - 1));
    classes_.push(c, Job{service, not_before_end, started, finished, policy_->tag(c, service)});
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
  if (policy_ && count_ > 0)
    ahead = policy_->ahead(classes_,
                           static_cast<std::size_t>(std::clamp(job_class, 0, static_cast<int>(classes_.size()) - 1)));
  return free_at + (ahead + charged_) / units_;
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
  if (!policy_) {
    job = fifo_.front();
    fifo_.pop_front();
    return true;
  }
  job = classes_.pop(policy_->next(classes_));
  return true;
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
  if (tracing_) trace_job(start, release);
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
