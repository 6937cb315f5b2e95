#include "sim/report/stats_result.hpp"

#include <cmath>

namespace iowall {
namespace {
double round6(double v) { return std::round(v * 1e6) / 1e6; }
}  // namespace

std::optional<std::uint64_t> StatRecord::percentile(double percent) const {
  for (const auto& [p, v] : percentiles)
    if (p == percent) return v;
  return std::nullopt;
}

double StatRecord::utilization() const {
  const double cap = capacity ? static_cast<double>(*capacity) : 1.0;
  return cap > 0 ? mean / cap : 0.0;
}

StatRecord histogram_record(const LogLinearHistogram& h) {
  StatRecord r;
  r.kind = StatKind::histogram;
  r.count = h.count();
  r.min = h.min();
  r.max = static_cast<std::int64_t>(h.max());
  r.mean = round6(h.mean());
  r.stddev = round6(h.stddev());
  for (double p : LogLinearHistogram::default_percentiles()) r.percentiles.emplace_back(p, h.percentile(p));
  return r;
}

StatsResult collect_stats(const StatRegistry& stats, Time end) {
  StatsResult out;
  for (const StatEntry& e : stats.entries()) {
    StatRecord r;
    switch (e.kind) {
      case StatKind::counter:
        r.value = static_cast<const Counter*>(e.stat)->value();
        break;
      case StatKind::gauge: {
        const auto* g = static_cast<const TimeWeighted*>(e.stat);
        r.mean = round6(g->mean(Time(0), end));
        r.max = g->max();
        if (g->series_period().is_positive()) {
          StatSeries s{g->series_period().seconds(), {}};
          for (double x : g->series(end)) s.values.push_back(round6(x));
          r.series = std::move(s);
        }
        if (e.capacity > 1 || e.path.size() > 5) r.capacity = e.capacity;
        break;
      }
      case StatKind::histogram:
        r = histogram_record(*static_cast<const LogLinearHistogram*>(e.stat));
        break;
      case StatKind::series: {
        const auto* s = static_cast<const TimeSeries*>(e.stat);
        r.series = StatSeries{s->period.seconds(), s->values};
        break;
      }
    }
    r.kind = e.kind;
    r.unit = e.unit;
    out[e.path] = std::move(r);  // a path registered twice keeps its last statistic
  }
  return out;
}

}  // namespace iowall
