#include "sim/run/path_base.hpp"

#include "models/host/cpu_socket.hpp"

namespace iowall {

void PathBase::thread_spend(std::uint32_t id, Time cost, InlineFunction<void()> then) {
  const InFlight& f = ios_[id];
  if (f.io.thread < 0) {
    f.cpu->spend(cost, then);
    return;
  }
  const auto t = static_cast<std::size_t>(f.io.thread);
  if (threads_.size() <= t) threads_.resize(t + 1);
  threads_[t].waiting.push_back({cost, f.cpu, then});
  if (!threads_[t].busy) run_next(f.io.thread);
}

void PathBase::run_next(int thread) {
  ThreadCpu& th = threads_[static_cast<std::size_t>(thread)];
  if (th.waiting.empty()) {
    th.busy = false;
    return;
  }
  th.busy = true;
  const Step step = th.waiting.front();
  th.waiting.pop_front();
  th.running = step.then;
  step.cpu->spend(step.cost, [this, thread] {
    const InlineFunction<void()> then = threads_[static_cast<std::size_t>(thread)].running;
    run_next(thread);
    then();
  });
}

}  // namespace iowall
