// A progress line on stderr in fio's manner ("points: 12/40 (30%), 2.1/s, ETA 13 s"),
// redrawn at most once a second, only when stderr is a terminal and not --quiet.
#pragma once
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace iowall {

class Progress {
public:
  Progress(std::string label, std::uint64_t total, bool quiet);
  ~Progress();
  // Thread-safe: marks `n` more units done and redraws if a second has passed.
  void advance(std::uint64_t n = 1);
  bool enabled() const { return enabled_; }

private:
  void draw(bool final);
  std::string label_;
  std::uint64_t total_, done_ = 0;
  bool enabled_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mutex_;
};

}  // namespace iowall
