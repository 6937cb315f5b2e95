#include "models/net/length.hpp"

#include <cmath>
#include <cstdlib>

namespace iowall::net {

bool parse_length(const std::string& text, double& meters) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(v) || v < 0) return false;
  std::string unit(end);
  if (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
  const double k = unit == "m" ? 1 : unit == "km" ? 1000 : -1;
  if (k < 0) return false;
  meters = v * k;
  return true;
}

}  // namespace iowall::net
