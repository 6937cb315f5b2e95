// Helpers shared by the report's sections: number formatting, fidelity names, limiters.
#include <algorithm>

#include <fmt/format.h>

#include "sim/report/report_sections.hpp"

namespace iowall::report {

std::string fixed(double v, int digits) { return fmt::format("{:.{}f}", v, digits); }

std::string or_text(const std::string& s, const char* fallback) { return s.empty() ? fallback : s; }

Interval scaled(const Interval& v, double k) { return {k * v.median, k * v.low, k * v.high}; }

std::string fidelity_text(const std::string& f) {
  if (f == "analytical") return "analytical (closed form)";
  if (f == "flow") return "flow (max-min fair sharing of flows over links)";
  if (f == "chunk") return "chunk (discrete events per transfer chunk with protocol overhead)";
  if (f == "tlp") return "tlp (every TLP, DLLP and credit)";
  return f.empty() ? "not recorded in the result" : f;
}

namespace {
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
}  // namespace

std::string limiter_text(const PathMetrics& metrics, const StatsResult& stats) {
  if (metrics.limited_by)
    return fmt::format("{} ({:.0f}% busy)", metrics.limited_by->resource, 100 * metrics.limited_by->utilization);
  std::string best;
  double best_util = -1;
  for (const auto& [path, v] : stats)
    if (ends_with(path, "/busy") && v.utilization() > best_util + 1e-12) {
      best = path.substr(0, path.size() - 5);
      best_util = v.utilization();
    }
  if (best.empty()) return "not reported, and no resource statistics to derive it from";
  return fmt::format("{} ({:.0f}% busy; derived by the report from the busiest resource, the run named none)", best,
                     100 * best_util);
}

std::vector<std::pair<std::string, double>> link_utilization(const StatsResult& stats) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto& [path, v] : stats)
    if (ends_with(path, "/busy") && path.find("--") != std::string::npos)
      out.emplace_back(path.substr(0, path.size() - 5), v.utilization());
  return out;
}

}  // namespace iowall::report
