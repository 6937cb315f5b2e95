// SIGINT/SIGTERM during a measurement set a flag that every worker polls, so the run
// stops at the next I/O boundary and the files it created are removed on the way out.
#pragma once
#include <atomic>
#include <csignal>

namespace iowall::measure {

class InterruptGuard {
public:
  InterruptGuard();   // installs the handlers, clears the flag
  ~InterruptGuard();  // restores the previous handlers
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

private:
  struct sigaction old_int_ {}, old_term_ {};
};

// True once SIGINT or SIGTERM arrived (or request_stop() was called).
bool stop_requested();
void request_stop();
void clear_stop();

}  // namespace iowall::measure
