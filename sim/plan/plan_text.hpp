// Sizes and bandwidths of the planner's answers as people read them: three significant
// digits in decimal units ("50 TB", "1.1 TB/s"), the units storage is sold in.
#pragma once
#include <string>

#include <fmt/format.h>

namespace iowall::plan {

inline std::string bytes_text(double b) {
  if (b >= 1e12) return fmt::format("{:.3g} TB", b / 1e12);
  if (b >= 1e9) return fmt::format("{:.3g} GB", b / 1e9);
  return fmt::format("{:.3g} MB", b / 1e6);
}

inline std::string rate_text(double bytes_per_s) {
  if (bytes_per_s >= 1e12) return fmt::format("{:.3g} TB/s", bytes_per_s / 1e12);
  return fmt::format("{:.3g} GB/s", bytes_per_s / 1e9);
}

}  // namespace iowall::plan
