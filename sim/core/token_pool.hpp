// A counting semaphore for simulated software resources whose hold time is not
// known in advance (a thread that reads then copies, a bounce buffer): acquire runs
// the callback when a token is free, in FIFO order; release hands it on.
#pragma once
#include <deque>

#include "sim/core/inline_function.hpp"

namespace iowall {

class TokenPool {
public:
  using Granted = InlineFunction<void()>;
  explicit TokenPool(int tokens) : free_(tokens) {}
  void acquire(Granted fn) {
    if (free_ > 0) {
      --free_;
      fn();
    } else {
      waiting_.push_back(fn);
    }
  }
  void release() {
    if (!waiting_.empty()) {
      const Granted next = waiting_.front();
      waiting_.pop_front();
      next();  // the token passes straight to the next waiter
    } else {
      ++free_;
    }
  }
  int free() const { return free_; }
  std::size_t waiting() const { return waiting_.size(); }

private:
  int free_;
  std::deque<Granted> waiting_;
};

}  // namespace iowall
