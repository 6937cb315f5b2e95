// A progress line on stderr in fio's manner ("points: 12/40 (30%), 2.1/s, ETA 13 s"),
// redrawn at most once a second, only when stderr is a terminal and not --quiet. The line
// ends with the total time; a task made with `only_if_slow` that ends within its first
// second draws nothing (a short run's table stays alone on the terminal).
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace iowall {

class Progress {
public:
  // What is counted: items ("12/40, 2.1/s") or bytes ("1.2 GiB/4 GiB, 850 MiB/s").
  enum class Unit { items, bytes };
  Progress(std::string label, std::uint64_t total, bool quiet, Unit unit = Unit::items, bool only_if_slow = false);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // Thread-safe: marks `n` more units done and redraws if a second has passed.
  void advance(std::uint64_t n = 1);
  // Thread-safe: `done` units are done in all.
  void set(std::uint64_t done);
  // Ends the line (with the total time, if anything was drawn); later calls draw nothing.
  void finish();
  bool enabled() const { return enabled_; }
  // Whether the display is on for `quiet`: stderr is a terminal and the user did not ask for quiet.
  static bool wanted(bool quiet);

private:
  void update(std::uint64_t done);  // under mutex_
  void draw(bool final);
  std::string amount(std::uint64_t n) const;
  std::string label_;
  std::uint64_t total_, done_ = 0;
  std::atomic<bool> enabled_;
  Unit unit_;
  bool only_if_slow_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mutex_;
};

}  // namespace iowall
