// What one simulation shares: the clock and event queue, the seed, the statistics
// registry, the optional trace and the list of components (for the watchdog).
// Passed by reference to every component; there are no singletons.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/event_queue.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/stats.hpp"
#include "sim/core/trace.hpp"

namespace iowall {

class Component;

// How finely bytes move: `chunk` moves whole DMA chunks (per-packet overhead counted
// exactly); `tlp` moves every TLP separately, with per-hop credit limits.
enum class Fidelity { chunk, tlp };

class SimContext {
public:
  explicit SimContext(std::uint64_t seed) : seed_(seed) {}
  SimContext(const SimContext&) = delete;
  SimContext& operator=(const SimContext&) = delete;

  Time now() const { return queue_.now(); }
  std::uint64_t seed() const { return seed_; }
  EventQueue& queue() { return queue_; }
  StatRegistry& stats() { return stats_; }
  Trace* trace() { return trace_; }
  void set_trace(Trace* t) { trace_ = t; }
  Fidelity fidelity() const { return fidelity_; }
  void set_fidelity(Fidelity f) { fidelity_ = f; }
  // When non-zero, resources also record their utilization per period (time series).
  Time series_period() const { return series_period_; }
  void set_series_period(Time p) { series_period_ = p; }

  template <typename F>
  EventId at(Time t, F&& fn) { return queue_.schedule(t, std::forward<F>(fn)); }
  template <typename F>
  EventId in(Time delay, F&& fn) { return queue_.schedule_in(delay, std::forward<F>(fn)); }

  void add_component(Component* c) { components_.push_back(c); }
  const std::vector<Component*>& components() const { return components_; }

  // Runs until no event is pending or simulated time passes `limit`. Then the
  // watchdog asks every component for unfinished work: if any has some while
  // nothing is scheduled, it throws RunError naming the stuck components.
  void run(Time limit = Time::max());
  // Called every 64 Ki events while run() runs (a progress display); none by default.
  void set_progress(std::function<void()> fn) { progress_ = std::move(fn); }

private:
  std::uint64_t seed_;
  EventQueue queue_;
  StatRegistry stats_;
  Trace* trace_ = nullptr;
  Time series_period_{};
  Fidelity fidelity_ = Fidelity::chunk;
  std::vector<Component*> components_;
  std::function<void()> progress_;
};

}  // namespace iowall
