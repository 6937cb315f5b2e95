// Statistics owned by components and registered with a name, a unit and a
// description. Writers (stats_writers.hpp) turn the registry into JSON, text or CSV.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/histogram.hpp"
#include "sim/core/units.hpp"

namespace iowall {

class Counter {
public:
  void add(std::uint64_t n = 1) { value_ += n; }
  std::uint64_t value() const { return value_; }

private:
  std::uint64_t value_ = 0;
};

// A quantity that holds a value over time (occupancy, busy servers): reports its
// time-weighted mean and maximum. Utilization is the mean of a 0..capacity gauge.
class TimeWeighted {
public:
  void set(Time now, i64 value) {
    if (pending_ && pending_at_ <= now) apply_pending();
    if (period_.is_positive()) record_series(now);
    integral_ += integral(value_, now - since_);
    since_ = now;
    value_ = value;
    max_ = value > max_ ? value : max_;
  }
  // Sets `value` now and `then` from `until` on, without the owner having to come back
  // at `until` (a server that frees its unit with no event). A later set() or a read
  // applies the change when its time has come; a second call replaces an unapplied one.
  void set_until(Time now, i64 value, Time until, i64 then) {
    set(now, value);
    pending_ = true;
    pending_at_ = until;
    pending_value_ = then;
  }
  // Also keep the mean of every `period` (a periodic time series of the gauge), for at
  // most kMaxSeriesPeriods periods (beyond that, recording throws InputError at --series).
  static constexpr i64 kMaxSeriesPeriods = 10'000;
  void enable_series(Time period) { period_ = period; }
  // Per-period means up to `now` (empty unless enabled).
  std::vector<double> series(Time now) const;
  Time series_period() const { return period_; }
  void add(Time now, i64 delta) { set(now, value_ + delta); }
  i64 value() const { return value_; }
  i64 max() const { return max_; }
  // Mean over [start, now].
  double mean(Time start, Time now) const {
    if (pending_ && pending_at_ <= now) {
      TimeWeighted applied = *this;
      applied.apply_pending();
      return applied.mean(start, now);
    }
    const i128 total = integral_ + integral(value_, now - since_);
    const Time span = now - start;
    return span.is_positive() ? static_cast<double>(total) / span.ps_value() : 0.0;
  }

private:
  void record_series(Time now);
  void apply_pending() {
    pending_ = false;
    set(pending_at_, pending_value_);
  }
  i64 value_ = 0;
  i64 max_ = 0;
  Time since_{};
  i128 integral_ = 0;
  Time period_{};
  std::vector<i128> period_integrals_;
  bool pending_ = false;
  Time pending_at_{};
  i64 pending_value_ = 0;
};

// Samples taken at a fixed period (for throughput and occupancy over time).
struct TimeSeries {
  Time period{};
  std::vector<double> values;
};

enum class StatKind { counter, gauge, histogram, series };

struct StatEntry {
  std::string path;  // "component/stat"
  std::string unit;
  std::string description;
  StatKind kind;
  const void* stat;  // Counter, TimeWeighted, LogLinearHistogram or TimeSeries
  i64 capacity = 1;  // for gauges: the value at full utilization
};

class StatRegistry {
public:
  void add(std::string path, std::string unit, std::string description, const Counter& c);
  void add(std::string path, std::string unit, std::string description, const TimeWeighted& g,
           i64 capacity = 1);
  void add(std::string path, std::string unit, std::string description, const LogLinearHistogram& h);
  void add(std::string path, std::string unit, std::string description, const TimeSeries& s);
  const std::vector<StatEntry>& entries() const { return entries_; }

private:
  std::vector<StatEntry> entries_;
};

}  // namespace iowall
