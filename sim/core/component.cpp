#include "sim/core/component.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"

namespace iowall {

Component::Component(SimContext& ctx, std::string name)
    : ctx_(ctx), name_(std::move(name)), rng_(ctx.seed(), name_) {
  ctx_.add_component(this);
}

void SimContext::run(Time limit) {
  // A relaxed atomic load every 1 Ki events: SIGINT stops a long run within
  // milliseconds at no measurable cost per event, even in a sanitized debug build
  // whose heavier events (a per-packet fabric) take tens of microseconds each.
  for (std::uint32_t n = 1; queue_.step_until(limit); ++n)
    if ((n & 0x3FF) == 0) {
      throw_if_interrupted();
      if (progress_ && (n & 0xFFFF) == 0) progress_();
    }
  if (queue_.pending() != 0) return;  // stopped at the time limit
  std::string stuck;
  for (const Component* c : components_) {
    const std::string why = c->pending_work();
    if (!why.empty()) stuck += fmt::format("{}{} ({})", stuck.empty() ? "" : ", ", c->name(), why);
  }
  if (!stuck.empty())
    throw RunError(fmt::format("deadlock at {}: nothing is scheduled but work is pending in {}",
                               to_string(now()), stuck));
}

}  // namespace iowall
