#include "sim/core/interrupt.hpp"

#include "sim/core/error.hpp"

namespace iowall {
namespace {
// Lock-free, so setting it from a signal handler is safe.
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free);
// Guards nest (the CLI's around a measurement's); only the outermost starts afresh,
// so a signal that arrived while a command was loading is not forgotten.
std::atomic<int> g_depth{0};

extern "C" void on_signal(int) { g_stop.store(true, std::memory_order_relaxed); }
}  // namespace

InterruptGuard::InterruptGuard() {
  if (g_depth.fetch_add(1) == 0) clear_stop();
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocked wait returns EINTR and the loop sees the flag
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
  // The outermost guard leaves a clean state behind, so that in a test program a later
  // simulation is not stopped by an earlier test's signal.
  if (g_depth.fetch_sub(1) == 1) clear_stop();
}

bool stop_requested() { return g_stop.load(std::memory_order_relaxed); }
void request_stop() { g_stop.store(true, std::memory_order_relaxed); }
void clear_stop() { g_stop.store(false, std::memory_order_relaxed); }

void throw_if_interrupted() {
  if (stop_requested()) throw Interrupted("interrupted");
}

}  // namespace iowall
