// How a server picks the next job when several classes (ingress ports, traffic classes,
// NVMe submission queues) wait: one interface, ArbitrationPolicy, and one small
// implementation per policy, chosen by name (sim/core/arbitration_policies.cpp):
//   fifo      first come first served: no classes, the server's own queue (no policy object)
//   rr        round-robin over the classes with jobs waiting
//   wrr       weighted round-robin: `weight` jobs in a row from a class while it has work
//   wfq       weighted fair queueing, self-clocked: the smallest finish tag first
//   priority  strict priority: the highest class first (as a higher PCIe traffic class)
// Before any of them, an urgent class (classes [0, n), round-robin among themselves) is
// served first, as NVMe's weighted round-robin with urgent priority class does. The
// server keeps the jobs waiting per class (ClassQueues); a policy only picks a class: one
// call per job served, none for fifo.
#pragma once
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/inline_function.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/units.hpp"

namespace iowall {

enum class Arbitration { fifo, round_robin, weighted_round_robin, weighted_fair, strict_priority };
Arbitration arbitration_from_name(const std::string& name);  // throws std::invalid_argument
const char* arbitration_name(Arbitration a);

// A job waiting at a server.
struct QueuedJob {
  Time service;
  Time not_before_end;
  InlineFunction<void(Time start, Time end)> started;
  InlineFunction<void()> finished;
  i64 finish_tag = 0;  // weighted fair queueing
};

// The jobs waiting at a server, one FIFO per class, with a bit per class that has any
// and the service each class has queued.
class ClassQueues {
public:
  void resize(std::size_t classes);
  std::size_t size() const { return queues_.size(); }
  bool empty(std::size_t c) const { return queues_[c].empty(); }
  const QueuedJob& front(std::size_t c) const { return queues_[c].front(); }
  Time service(std::size_t c) const { return service_[c]; }
  void push(std::size_t c, const QueuedJob& job);
  QueuedJob pop(std::size_t c);
  // The first class after `after` (cyclically, itself last) with jobs waiting; any class
  // when none waits.
  std::size_t next_waiting(std::size_t after) const;
  // Calls `f(c)` for every class with jobs waiting, in class order.
  template <typename F>
  void for_each_waiting(F&& f) const;

private:
  void mark(std::size_t c, bool waiting) {
    const std::uint64_t bit = std::uint64_t{1} << (c % 64);
    waiting_[c / 64] = waiting ? waiting_[c / 64] | bit : waiting_[c / 64] & ~bit;
  }
  std::vector<RingQueue<QueuedJob>> queues_;
  std::vector<std::uint64_t> waiting_;  // a bit per class with jobs waiting
  std::vector<Time> service_;           // service queued per class
};

class ArbitrationPolicy {
public:
  // `weights`: one per class (at least 1 each; used by the weighted policies).
  explicit ArbitrationPolicy(std::vector<int> weights);
  virtual ~ArbitrationPolicy() = default;
  virtual Arbitration kind() const = 0;
  std::size_t classes() const { return weights_.size(); }

  // A job of `service` joins class `c`: its finish tag (weighted fair queueing; 0 else).
  virtual i64 tag(std::size_t c, Time service) { return 0; }
  // The class to serve next (some class has jobs): the urgent class first, then the policy.
  std::size_t next(const ClassQueues& q) {
    std::size_t c = 0;
    return pick_urgent(q, c) ? c : pick(q);
  }
  // The service that would go before a job of class `mine` queued now, had nothing else
  // arrived: its own class's and one job of each other class (the round-robin policies).
  virtual Time ahead(const ClassQueues& q, std::size_t mine) const;
  // Classes [0, n) form the urgent class.
  void set_urgent_classes(int n) { urgent_ = n; }

protected:
  // The class to serve next by this policy (some class has jobs).
  virtual std::size_t pick(const ClassQueues& q) = 0;
  std::vector<int> weights_;

private:
  bool pick_urgent(const ClassQueues& q, std::size_t& pick);
  int urgent_ = 0;
  std::size_t urgent_next_ = 0;
};

// The policy named `kind` over `weights.size()` classes; null for fifo (the server's own queue).
std::unique_ptr<ArbitrationPolicy> make_arbitration(Arbitration kind, std::vector<int> weights);

template <typename F>
void ClassQueues::for_each_waiting(F&& f) const {
  for (std::size_t w = 0; w < waiting_.size(); ++w)
    for (std::uint64_t bits = waiting_[w]; bits != 0; bits &= bits - 1)
      f(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
}

}  // namespace iowall
