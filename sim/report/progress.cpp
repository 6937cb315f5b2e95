#include "sim/report/progress.hpp"

#include <cstdio>
#include <unistd.h>

#include <fmt/format.h>

namespace iowall {

bool Progress::wanted(bool quiet) {
  return !quiet && ::isatty(STDERR_FILENO) == 1;
}

Progress::Progress(std::string label, std::uint64_t total, bool quiet, Unit unit, bool only_if_slow)
    : label_(std::move(label)), total_(total), enabled_(wanted(quiet)), unit_(unit), only_if_slow_(only_if_slow),
      start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

Progress::~Progress() { finish(); }

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (enabled_ && (drawn_ || (!only_if_slow_ && done_ > 0))) draw(true);
  enabled_ = false;
}

void Progress::advance(std::uint64_t n) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  update(done_ + n);
}

void Progress::set(std::uint64_t done) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  update(done);
}

void Progress::update(std::uint64_t done) {
  done_ = done;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ >= std::chrono::seconds(1)) {
    last_draw_ = now;
    draw(false);
  }
}

std::string Progress::amount(std::uint64_t n) const {
  if (unit_ == Unit::items) return std::to_string(n);
  const double b = static_cast<double>(n);
  if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.1f} GiB", b / (1024.0 * 1024 * 1024));
  if (b >= 1024.0 * 1024) return fmt::format("{:.1f} MiB", b / (1024.0 * 1024));
  return fmt::format("{:.0f} KiB", b / 1024);
}

void Progress::draw(bool final) {
  drawn_ = true;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  const double eta = rate > 0 ? static_cast<double>(total_ - std::min(done_, total_)) / rate : 0;
  const std::string rate_text = unit_ == Unit::items ? fmt::format("{:.1f}", rate) : amount(static_cast<std::uint64_t>(rate));
  // The trailing spaces clear what a longer earlier line left.
  const std::string line =
      fmt::format("\r{}: {}/{} ({:.0f}%), {}/s, {} {:.0f} s   ", label_, amount(done_), amount(total_),
                  total_ ? 100.0 * static_cast<double>(std::min(done_, total_)) / static_cast<double>(total_) : 100.0,
                  rate_text, final ? "took" : "ETA", final ? elapsed : eta);
  std::fputs(line.c_str(), stderr);
  if (final) std::fputs("\n", stderr);
  std::fflush(stderr);
}

}  // namespace iowall
