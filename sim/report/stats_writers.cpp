#include "sim/report/stats_writers.hpp"

#include <cmath>

#include <fmt/format.h>

namespace iowall {
namespace {
double round6(double v) { return std::round(v * 1e6) / 1e6; }
}  // namespace

nlohmann::json histogram_json(const LogLinearHistogram& h) {
  nlohmann::json pct = nlohmann::json::object();
  for (double p : LogLinearHistogram::default_percentiles())
    pct[fmt::format("{:.6f}", p)] = h.percentile(p);
  return {{"count", h.count()}, {"min", h.min()},       {"max", h.max()},
          {"mean", round6(h.mean())}, {"stddev", round6(h.stddev())}, {"percentile", pct}};
}

nlohmann::json stats_to_json(const StatRegistry& stats, Time end) {
  nlohmann::json out = nlohmann::json::object();
  for (const StatEntry& e : stats.entries()) {
    nlohmann::json v;
    switch (e.kind) {
      case StatKind::counter: v = {{"value", static_cast<const Counter*>(e.stat)->value()}}; break;
      case StatKind::gauge: {
        const auto* g = static_cast<const TimeWeighted*>(e.stat);
        v = {{"mean", round6(g->mean(Time(0), end))}, {"max", g->max()}};
        if (g->series_period().ps > 0) {
          std::vector<double> values;
          for (double x : g->series(end)) values.push_back(round6(x));
          v["series"] = {{"period_s", g->series_period().seconds()}, {"values", values}};
        }
        if (e.capacity > 1 || e.path.size() > 5) v["capacity"] = e.capacity;
        break;
      }
      case StatKind::histogram: v = histogram_json(*static_cast<const LogLinearHistogram*>(e.stat)); break;
      case StatKind::series: {
        const auto* s = static_cast<const TimeSeries*>(e.stat);
        v = {{"period_s", s->period.seconds()}, {"values", s->values}};
        break;
      }
    }
    v["unit"] = e.unit;
    out[e.path] = std::move(v);
  }
  return out;
}

namespace {
// The headline numbers of one statistic: value for counters, mean/max for gauges,
// count/mean/p50/p99 for histograms.
std::string summary(const nlohmann::json& v) {
  if (v.contains("value")) return fmt::format("{}", v["value"].dump());
  if (v.contains("percentile"))
    return fmt::format("count {} mean {} p50 {} p99 {}", v["count"].dump(), v["mean"].dump(),
                       v["percentile"]["50.000000"].dump(), v["percentile"]["99.000000"].dump());
  return fmt::format("mean {} max {}", v["mean"].dump(), v["max"].dump());
}
}  // namespace

std::string stats_text(const nlohmann::json& stats) {
  std::string out;
  for (const auto& [path, v] : stats.items())
    out += fmt::format("  {:<48} {:<6} {}\n", path, v["unit"].get<std::string>(), summary(v));
  return out;
}

std::string stats_csv(const nlohmann::json& stats, const std::string& prefix_columns, const std::string& prefix_values) {
  std::string out = prefix_columns + "stat,unit,value,mean,max,count,p50,p99\n";
  for (const auto& item : stats.items()) {
    // Named references, not a structured binding: clang before 16 cannot capture those.
    const std::string& path = item.key();
    const nlohmann::json& v = item.value();
    auto field = [&](const char* k) { return v.contains(k) ? v[k].dump() : std::string(); };
    const bool hist = v.contains("percentile");
    out += fmt::format("{}{},{},{},{},{},{},{},{}\n", prefix_values, path, v["unit"].get<std::string>(), field("value"),
                       field("mean"), field("max"), field("count"),
                       hist ? v["percentile"]["50.000000"].dump() : "", hist ? v["percentile"]["99.000000"].dump() : "");
  }
  return out;
}

}  // namespace iowall
