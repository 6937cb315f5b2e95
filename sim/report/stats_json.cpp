#include "sim/report/stats_json.hpp"

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

}  // namespace iowall
