// A resource that work competes for: `units` identical servers in front of a
// bounded queue, FIFO or arbitrated among classes by a named policy
// (sim/core/arbitration.hpp). A job asks for a service time and may not end before a given
// time (cut-through: a hop cannot finish sending before the bytes have arrived).
// When a job starts, its callback learns its start and end; the server frees the
// unit at the end. A full queue refuses the job (backpressure) and can notify a
// waiter when space opens. Busy units and queue occupancy are time-weighted gauges.
// Under a trace, each job is a slice on the track of the unit that serves it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/core/arbitration.hpp"
#include "sim/core/component.hpp"
#include "sim/core/inline_function.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/slot_pool.hpp"

namespace iowall {

class Server {
public:
  using Started = InlineFunction<void(Time start, Time end)>;
  using Notify = InlineFunction<void()>;

  Server(Component& owner, std::string name, int units = 1, std::size_t queue_capacity = SIZE_MAX);
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Queues a job; false when the queue is full (nothing was queued). `started` runs
  // when service begins, `finished` when it ends; either may be empty. `job_class`
  // matters under arbitration other than fifo (an ingress port or traffic class).
  bool submit(Time service, Time not_before_end, Started started, Notify finished = {}, int job_class = 0);
  // Arbitration among `weights.size()` classes (weights used by the weighted policies).
  void set_arbitration(Arbitration policy, std::vector<int> weights);
  Arbitration arbitration() const { return policy_ ? policy_->kind() : Arbitration::fifo; }
  // Classes [0, n) form an urgent class served before all others (round-robin among
  // themselves), as NVMe's weighted round-robin with urgent priority class does.
  void set_urgent_classes(int n);
  // Work too small to schedule on its own (a control TLP slipping between data packets):
  // it takes `service` of the server's time without an event. An idle unit absorbs it;
  // otherwise the next job to start is delayed by it.
  void charge(Time service);
  // When a job of `job_class` queued now would start, had nothing else arrived: under
  // fifo every queued job goes first; under strict priority those of its class and
  // above; under the round-robin policies its own class's and one of each other class.
  // Exact for one unit under fifo; with several units, an upper bound (the
  // latest-ending job in service stands for all of them).
  Time drain_time(int job_class = 0) const;
  // Calls `fn` once the queue has room again (FIFO among waiters).
  void wait_for_space(Notify fn);
  // What one job carries ("command", "copy"): the name of its slices in a trace.
  void set_carries(const std::string& what);

  bool full() const { return queued() >= capacity_; }
  void set_capacity(std::size_t jobs) { capacity_ = jobs; }
  std::size_t queued() const { return count_; }
  int busy_units() const { return busy_at(owner_.now()); }
  int units() const { return units_; }
  const std::string& name() const { return name_; }
  const Component& owner() const { return owner_; }

  // Time-weighted fraction of units busy since `start`.
  double utilization(Time start, Time now) const { return busy_gauge_.mean(start, now) / units_; }
  std::uint64_t jobs() const { return jobs_.value(); }
  Time busy_time() const { return busy_time_; }

private:
  using Job = QueuedJob;
  void start_next();
  void begin(Job& job);  // starts a job on a free unit
  bool pop_next(Job& job);  // the next job: FIFO, or by the arbitration policy
  void finish_one(std::uint32_t in_service);
  // Units busy at `now`, counting a quiet release that has come as done.
  int busy_at(Time now) const { return busy_ - (quiet_release_ && release_at_ <= now ? 1 : 0); }
  // Frees the unit of a quiet release whose time has come.
  void retire_quiet(Time now);
  // A job is about to wait behind the quietly released unit: give the release its event.
  void schedule_quiet_release();
  // Records a job in the trace, on the first unit free at `start` (only under a trace).
  void trace_job(Time start, Time release);

  Component& owner_;
  std::string name_;
  int units_;
  std::size_t capacity_;
  int busy_ = 0;
  RingQueue<Job> fifo_;   // the jobs waiting under fifo
  std::size_t count_ = 0;  // jobs waiting, all classes
  std::unique_ptr<ArbitrationPolicy> policy_;  // null: fifo
  ClassQueues classes_;                        // per-class queues (policies other than fifo)
  int urgent_ = 0;
  SlotPool<Notify> in_service_;  // `finished` callbacks of the jobs being served
  std::vector<Notify> waiters_;
  std::size_t waiter_head_ = 0;
  TimeWeighted busy_gauge_, queue_gauge_;
  Counter jobs_;
  Time busy_time_{};
  Time charged_{};  // slipped-in work the next job to start waits for
  Time queued_service_{};  // service of the jobs waiting
  Time last_release_{};    // when the latest-started job frees its unit
  // A single-unit server whose job has nothing to do when it ends, and nothing waiting,
  // frees its unit at `release_at_` without an event (most hops of a lightly loaded
  // route): the event is scheduled only if a job arrives before then.
  bool quiet_release_ = false;
  Time release_at_{};
  // Set only under a trace: the track of each unit (created on its first job) and when
  // each unit's latest job ends.
  struct Tracing {
    std::string carries;
    std::vector<int> tracks;
    std::vector<Time> free_at;
  };
  std::unique_ptr<Tracing> tracing_;
};

}  // namespace iowall
