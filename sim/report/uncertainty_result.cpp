#include "sim/report/uncertainty_result.hpp"

#include <algorithm>
#include <cmath>

#include "sim/report/run_result.hpp"

namespace iowall {
namespace {

double round_to(double v, int digits) {
  const double f = std::pow(10.0, digits);
  return std::round(v * f) / f;
}

// Linear interpolation between the order statistics (Hyndman and Fan's type 7).
double sample_percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double h = (static_cast<double>(sorted.size()) - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

const std::vector<HeadlineMetric>& headline_metrics() {
  static const std::vector<HeadlineMetric> m = {
      {"throughput_GBps", "throughput (GB/s)", &PathMetrics::throughput_GBps, &PathIntervals::throughput_GBps, 4,
       "throughput", false},
      {"iops", "IOPS (I/O per s)", &PathMetrics::iops, &PathIntervals::iops, 1, "iops", false},
      {"latency_mean_us", "mean latency (us)", &PathMetrics::latency_mean_us, &PathIntervals::latency_mean_us, 3,
       "latency", false},
      {"latency_p50_us", "p50 latency (us)", &PathMetrics::latency_p50_us, &PathIntervals::latency_p50_us, 3, "latency",
       false},
      {"latency_p99_us", "p99 latency (us)", &PathMetrics::latency_p99_us, &PathIntervals::latency_p99_us, 3, "latency",
       false},
      {"cpu_cores_busy", "CPU cores busy (cores)", &PathMetrics::cpu_cores_busy, &PathIntervals::cpu_cores_busy, 3, "",
       false},
      {"last_done_s", "done (s)", &PathMetrics::last_done_s, &PathIntervals::last_done_s, 9, "throughput", true},
  };
  return m;
}

const HeadlineMetric* headline_metric(const std::string& key) {
  for (const HeadlineMetric& h : headline_metrics())
    if (key == h.key) return &h;
  return nullptr;
}

Interval interval_of(std::vector<double> values, int digits) {
  std::sort(values.begin(), values.end());
  return {round_to(sample_percentile(values, 0.5), digits), round_to(sample_percentile(values, 0.05), digits),
          round_to(sample_percentile(values, 0.95), digits)};
}

Interval widen(const Interval& v, const ErrorBand& band, bool inverse, int digits) {
  if (band.points == 0) return v;
  // simulated = true * (1 + error): the true value lies in [low / (1 + e95), high / (1 + e5)];
  // a metric that scales as the inverse of the kind's (done time) moves the other way.
  Interval w = v;
  if (inverse) {
    w.low = v.low * (1 + std::min(band.low, 0.0));
    w.high = v.high * (1 + std::max(band.high, 0.0));
  } else {
    w.low = v.low / (1 + std::max(band.high, 0.0));
    w.high = v.high / std::max(0.01, 1 + std::min(band.low, 0.0));
  }
  w.low = round_to(w.low, digits);
  w.high = round_to(w.high, digits);
  return w;
}

}  // namespace iowall
