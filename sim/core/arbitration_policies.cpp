// The arbitration policies a server can take, one small implementation each of
// ArbitrationPolicy (sim/core/arbitration.hpp), and the table that names them.
#include <stdexcept>

#include "sim/core/arbitration.hpp"

namespace iowall {
namespace {

// Round-robin: the next class after the last one served that has jobs waiting.
class RoundRobin final : public ArbitrationPolicy {
public:
  using ArbitrationPolicy::ArbitrationPolicy;
  Arbitration kind() const override { return Arbitration::round_robin; }

protected:
  std::size_t pick(const ClassQueues& q) override { return last_ = q.next_waiting(last_); }

private:
  std::size_t last_ = 0;
};

// Weighted round-robin: a class keeps the server for `weight` jobs in a row while it
// has work, then the next class with jobs waiting takes over.
class WeightedRoundRobin final : public ArbitrationPolicy {
public:
  using ArbitrationPolicy::ArbitrationPolicy;
  Arbitration kind() const override { return Arbitration::weighted_round_robin; }

protected:
  std::size_t pick(const ClassQueues& q) override {
    if (credit_ > 0 && !q.empty(last_)) {
      --credit_;
      return last_;
    }
    last_ = q.next_waiting(last_);
    credit_ = weights_[last_] - 1;
    return last_;
  }

private:
  std::size_t last_ = 0;
  int credit_ = 0;
};

// Weighted fair queueing, self-clocked: a job's finish tag is max(system virtual time,
// its class's last tag) + service / weight; the smallest tag at the head of a class goes
// first and sets the virtual time. Classes share the server's time, not its jobs.
class WeightedFair final : public ArbitrationPolicy {
public:
  explicit WeightedFair(std::vector<int> weights)
      : ArbitrationPolicy(std::move(weights)), last_finish_(weights_.size(), 0) {}
  Arbitration kind() const override { return Arbitration::weighted_fair; }
  i64 tag(std::size_t c, Time service) override {
    last_finish_[c] = std::max(virtual_time_, last_finish_[c]) + (service / weights_[c]).whole_ps();
    return last_finish_[c];
  }

protected:
  std::size_t pick(const ClassQueues& q) override {
    i64 best = INT64_MAX;
    std::size_t pick = 0;
    for (std::size_t c = 0; c < q.size(); ++c)
      if (!q.empty(c) && q.front(c).finish_tag < best) {
        best = q.front(c).finish_tag;
        pick = c;
      }
    virtual_time_ = best;
    return pick;
  }

private:
  std::vector<i64> last_finish_;
  i64 virtual_time_ = 0;
};

// Strict priority: the highest class with jobs waiting.
class StrictPriority final : public ArbitrationPolicy {
public:
  using ArbitrationPolicy::ArbitrationPolicy;
  Arbitration kind() const override { return Arbitration::strict_priority; }
  // Its own class's jobs and those of every class above it go first.
  Time ahead(const ClassQueues& q, std::size_t mine) const override {
    Time ahead{};
    q.for_each_waiting([&](std::size_t c) {
      if (c >= mine) ahead += q.service(c);
    });
    return ahead;
  }

protected:
  std::size_t pick(const ClassQueues& q) override {
    for (std::size_t c = q.size(); c-- > 0;)
      if (!q.empty(c)) return c;
    return 0;
  }
};

struct Named {
  Arbitration kind;
  const char* name;
  std::unique_ptr<ArbitrationPolicy> (*make)(std::vector<int>);
};
template <typename P>
std::unique_ptr<ArbitrationPolicy> make(std::vector<int> weights) {
  return std::make_unique<P>(std::move(weights));
}
constexpr Named kPolicies[] = {
    {Arbitration::fifo, "fifo", nullptr},  // the server's own queue
    {Arbitration::round_robin, "rr", &make<RoundRobin>},
    {Arbitration::weighted_round_robin, "wrr", &make<WeightedRoundRobin>},
    {Arbitration::weighted_fair, "wfq", &make<WeightedFair>},
    {Arbitration::strict_priority, "priority", &make<StrictPriority>},
};

}  // namespace

Arbitration arbitration_from_name(const std::string& name) {
  for (const Named& p : kPolicies)
    if (name == p.name) return p.kind;
  throw std::invalid_argument(name);
}

const char* arbitration_name(Arbitration a) {
  for (const Named& p : kPolicies)
    if (a == p.kind) return p.name;
  return "?";
}

std::unique_ptr<ArbitrationPolicy> make_arbitration(Arbitration kind, std::vector<int> weights) {
  for (const Named& p : kPolicies)
    if (kind == p.kind) return p.make ? p.make(std::move(weights)) : nullptr;
  return nullptr;
}

}  // namespace iowall
