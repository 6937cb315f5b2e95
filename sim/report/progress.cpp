#include "sim/report/progress.hpp"

#include <cstdio>
#include <unistd.h>

#include <fmt/format.h>

namespace iowall {

Progress::Progress(std::string label, std::uint64_t total, bool quiet)
    : label_(std::move(label)), total_(total), enabled_(!quiet && ::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

Progress::~Progress() {
  if (enabled_ && done_ > 0) draw(true);
}

void Progress::advance(std::uint64_t n) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  done_ += n;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ >= std::chrono::seconds(1)) {
    last_draw_ = now;
    draw(false);
  }
}

void Progress::draw(bool final) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  const double eta = rate > 0 ? static_cast<double>(total_ - std::min(done_, total_)) / rate : 0;
  const std::string line =
      fmt::format("\r{}: {}/{} ({:.0f}%), {:.1f}/s, {} {:.0f} s", label_, done_, total_,
                  total_ ? 100.0 * static_cast<double>(done_) / static_cast<double>(total_) : 100.0, rate,
                  final ? "took" : "ETA", final ? elapsed : eta);
  std::fputs(line.c_str(), stderr);
  if (final) std::fputs("\n", stderr);
  std::fflush(stderr);
}

}  // namespace iowall
