// A run's statistics as text lines and CSV rows.
#include "sim/report/stats_writers.hpp"

#include <fmt/format.h>

#include "sim/report/json_fields.hpp"

namespace iowall {
namespace {

std::string percentile_text(const StatRecord& r, double p) {
  const auto v = r.percentile(p);
  return v ? fmt::format("{}", *v) : "null";
}

// The headline numbers of one statistic: value for counters, mean/max for gauges,
// count/mean/p50/p99 for histograms, period and length for series.
std::string stats_summary(const StatRecord& r) {
  switch (r.kind) {
    case StatKind::counter: return fmt::format("{}", r.value);
    case StatKind::histogram:
      return fmt::format("count {} mean {} p50 {} p99 {}", r.count, json_number_text(r.mean), percentile_text(r, 50),
                         percentile_text(r, 99));
    case StatKind::gauge: return fmt::format("mean {} max {}", json_number_text(r.mean), r.max);
    case StatKind::series:
      return fmt::format("period {} s, {} values", r.series ? json_number_text(r.series->period_s) : "null",
                         r.series ? r.series->values.size() : 0);
  }
  return {};
}

}  // namespace

std::string stats_text(const StatsResult& stats) {
  std::string out;
  for (const auto& [path, r] : stats) out += fmt::format("  {:<48} {:<6} {}\n", path, r.unit, stats_summary(r));
  return out;
}

std::string stats_csv(const StatsResult& stats, const std::string& prefix_columns, const std::string& prefix_values) {
  std::string out = prefix_columns + "stat,unit,value,mean,max,count,p50,p99\n";
  for (const auto& [path, r] : stats) {
    const bool counter = r.kind == StatKind::counter, hist = r.kind == StatKind::histogram;
    const bool has_mean = r.kind == StatKind::gauge || hist;
    out += fmt::format("{}{},{},{},{},{},{},{},{}\n", prefix_values, path, r.unit,
                       counter ? fmt::format("{}", r.value) : "", has_mean ? json_number_text(r.mean) : "",
                       has_mean ? fmt::format("{}", r.max) : "", hist ? fmt::format("{}", r.count) : "",
                       hist ? percentile_text(r, 50) : "", hist ? percentile_text(r, 99) : "");
  }
  return out;
}

}  // namespace iowall
