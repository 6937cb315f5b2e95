#include "sim/core/stats.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace iowall {

void TimeWeighted::record_series(Time now) {
  // A series holds at most kMaxSeriesPeriods means: a period too short for the run would
  // take memory and time in proportion to the run's length over the period.
  if (now / period_ >= kMaxSeriesPeriods)
    throw InputError("", "--series",
                     fmt::format("a period of {} splits this run into more than {} periods; give a longer one "
                                 "(at least {})",
                                 to_string(period_), kMaxSeriesPeriods, to_string(now / kMaxSeriesPeriods + Time(1))));
  // Spread value_ x [since_, now) over the periods it covers.
  Time t = since_;
  while (t < now) {
    const auto index = static_cast<std::size_t>(t / period_);
    const Time end = std::min(now, period_ * static_cast<i64>(index + 1));
    if (period_integrals_.size() <= index) period_integrals_.resize(index + 1, 0);
    period_integrals_[index] += integral(value_, end - t);
    t = end;
  }
}

std::vector<double> TimeWeighted::series(Time now) const {
  if (!period_.is_positive()) return {};
  TimeWeighted copy = *this;
  if (copy.pending_ && copy.pending_at_ <= now) copy.apply_pending();
  copy.record_series(now);
  std::vector<double> out;
  const auto periods = static_cast<std::size_t>(ceil_div(now, period_));
  for (std::size_t i = 0; i < periods; ++i) {
    const i128 v = i < copy.period_integrals_.size() ? copy.period_integrals_[i] : 0;
    const Time span = std::min(period_, now - period_ * static_cast<i64>(i));
    out.push_back(span.is_positive() ? static_cast<double>(v) / span.ps_value() : 0.0);
  }
  return out;
}

void StatRegistry::add(std::string path, std::string unit, std::string description, const Counter& c) {
  entries_.push_back({std::move(path), std::move(unit), std::move(description), StatKind::counter, &c});
}
void StatRegistry::add(std::string path, std::string unit, std::string description, const TimeWeighted& g,
                       i64 capacity) {
  entries_.push_back(
      {std::move(path), std::move(unit), std::move(description), StatKind::gauge, &g, capacity});
}
void StatRegistry::add(std::string path, std::string unit, std::string description,
                       const LogLinearHistogram& h) {
  entries_.push_back({std::move(path), std::move(unit), std::move(description), StatKind::histogram, &h});
}
void StatRegistry::add(std::string path, std::string unit, std::string description, const TimeSeries& s) {
  entries_.push_back({std::move(path), std::move(unit), std::move(description), StatKind::series, &s});
}

}  // namespace iowall
