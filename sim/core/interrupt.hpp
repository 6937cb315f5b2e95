// SIGINT/SIGTERM set a flag that long loops poll (the event loop, sweep workers,
// measurement workers), so a command stops at the next safe point, removes what it
// created and exits 130 instead of dying halfway through writing a file.
#pragma once
#include <atomic>
#include <csignal>

namespace iowall {

class InterruptGuard {
public:
  InterruptGuard();   // installs the handlers; the outermost guard clears the flag
  ~InterruptGuard();  // restores the previous handlers; the outermost clears the flag
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

private:
  struct sigaction old_int_ {}, old_term_ {};
};

// True once SIGINT or SIGTERM arrived (or request_stop() was called).
bool stop_requested();
void request_stop();
void clear_stop();
// Throws Interrupted (a RunError) when a stop was requested.
void throw_if_interrupted();

}  // namespace iowall
