// Timing for the `bench` commands: wall clock and this process's CPU time, since on a
// shared machine the wall clock also counts time spent waiting for a core.
#pragma once
#include <chrono>
#include <ctime>

namespace iowall {

struct Clocks {
  double wall = 0, cpu = 0;
};

template <typename F>
Clocks timed(F&& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  fn();
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
          static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC};
}

}  // namespace iowall
