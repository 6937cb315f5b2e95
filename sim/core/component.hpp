// A component of the simulation: a hierarchical name, its own random stream, its
// statistics, and a lifecycle (construct -> validate -> connect -> run -> finish).
#pragma once
#include <string>

#include "sim/core/sim_context.hpp"

namespace iowall {

class Component {
public:
  Component(SimContext& ctx, std::string name);
  virtual ~Component() = default;
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  const std::string& name() const { return name_; }
  SimContext& ctx() const { return ctx_; }
  Time now() const { return ctx_.now(); }
  Rng& rng() { return rng_; }

  // Unfinished work, described for the deadlock watchdog; empty when idle.
  virtual std::string pending_work() const { return {}; }

protected:
  void register_stat(const std::string& stat, std::string unit, std::string desc, const Counter& c) {
    ctx_.stats().add(name_ + "/" + stat, std::move(unit), std::move(desc), c);
  }
  void register_stat(const std::string& stat, std::string unit, std::string desc, const TimeWeighted& g,
                     i64 capacity = 1) {
    ctx_.stats().add(name_ + "/" + stat, std::move(unit), std::move(desc), g, capacity);
  }
  void register_stat(const std::string& stat, std::string unit, std::string desc,
                     const LogLinearHistogram& h) {
    ctx_.stats().add(name_ + "/" + stat, std::move(unit), std::move(desc), h);
  }

private:
  SimContext& ctx_;
  std::string name_;
  Rng rng_;
};

}  // namespace iowall
