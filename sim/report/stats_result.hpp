// The statistics of one run as typed values: a record per registered statistic, keyed by
// its path ("component/stat") and sorted by it, taken from the registry once at the end of
// the run. Counters keep their value, gauges their time-weighted mean and maximum,
// histograms fio's percentile list; the JSON, text and CSV writers read these records.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/stats.hpp"

namespace iowall {

// A periodic series: the mean of every period (a gauge's --series, or a TimeSeries).
struct StatSeries {
  double period_s = 0;
  std::vector<double> values;
  bool operator==(const StatSeries&) const = default;
};

struct StatRecord {
  StatKind kind = StatKind::counter;
  std::string unit;
  std::uint64_t value = 0;                // counter
  double mean = 0;                        // gauge (time-weighted, in units), histogram
  std::int64_t max = 0;                   // gauge, histogram
  std::optional<std::int64_t> capacity;   // gauge: the value at full utilization
  std::optional<StatSeries> series;       // gauge with a series; the series kind
  std::uint64_t count = 0, min = 0;       // histogram
  double stddev = 0;                      // histogram
  std::vector<std::pair<double, std::uint64_t>> percentiles;  // histogram: (percent, value), ascending

  // The histogram's value at `percent`, if it was recorded.
  std::optional<std::uint64_t> percentile(double percent) const;
  // A gauge's mean over its capacity (1 when it has none); 0 when the capacity is not positive.
  double utilization() const;
  bool operator==(const StatRecord&) const = default;
};

using StatsResult = std::map<std::string, StatRecord>;

// The registry's statistics over [0, end] (means rounded to 6 decimals, as written).
StatsResult collect_stats(const StatRegistry& stats, Time end);
StatRecord histogram_record(const LogLinearHistogram& h);

}  // namespace iowall
