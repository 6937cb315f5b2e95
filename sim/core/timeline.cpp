#include "sim/core/timeline.hpp"

#include <algorithm>

namespace iowall {

namespace {
// Past intervals are dropped only once a unit holds this many: they cost a little
// search time, and dropping them on every booking would cost more.
constexpr std::size_t kPruneAt = 16;
}  // namespace

Timeline::Timeline(Component& owner, std::string name, int units)
    : owner_(owner), name_(std::move(name)), units_(static_cast<std::size_t>(units < 1 ? 1 : units)) {
  const std::string prefix = owner_.name() + "/" + name_;
  auto& stats = owner_.ctx().stats();
  stats.add(prefix + "/jobs", "jobs", "operations served", jobs_);
  stats.add(prefix + "/busy_time", "ps", "time booked, summed over units", busy_ps_);
  if (owner_.ctx().trace()) trace_tracks_.assign(units_.size(), 0);
}

void Timeline::forget_past(std::vector<Interval>& unit) const {
  const Time now = owner_.now();
  std::size_t n = 0;
  while (n < unit.size() && unit[n].end <= now) ++n;
  if (n > 0) unit.erase(unit.begin(), unit.begin() + static_cast<std::ptrdiff_t>(n));
}

std::pair<Time, std::size_t> Timeline::earliest_gap(const std::vector<Interval>& unit, Time arrival, Time duration) {
  Time start = arrival;
  // Bookings do not overlap, so their ends are sorted too: skip those that end before
  // the arrival by bisection, then walk the gaps between the rest.
  auto it = std::partition_point(unit.begin(), unit.end(), [start](const Interval& v) { return v.end <= start; });
  std::size_t i = static_cast<std::size_t>(it - unit.begin());
  for (; i < unit.size(); ++i) {
    if (start + duration <= unit[i].start) break;
    start = std::max(start, unit[i].end);
  }
  return {start, i};
}

Time Timeline::book(Time arrival, Time duration, const char* what) {
  std::size_t best_unit = 0, best_index = 0;
  Time best = Time::max();
  for (std::size_t u = 0; u < units_.size(); ++u) {
    Unit& unit = units_[u];
    std::pair<Time, std::size_t> gap;
    if (unit.last_end <= arrival) {
      // Most requests arrive after everything booked: no gap to search. A unit whose
      // bookings all lie in the past keeps none (a short list stays in cache).
      if (unit.last_end <= owner_.now()) unit.bookings.clear();
      gap = {arrival, unit.bookings.size()};
    } else {
      if (unit.bookings.size() > kPruneAt) forget_past(unit.bookings);
      gap = earliest_gap(unit.bookings, arrival, duration);
    }
    if (gap.first < best) {
      best = gap.first;
      best_unit = u;
      best_index = gap.second;
      // No unit can start before the arrival, and the lowest such unit wins a tie.
      if (best == arrival) break;
    }
  }
  Unit& unit = units_[best_unit];
  unit.bookings.insert(unit.bookings.begin() + static_cast<std::ptrdiff_t>(best_index), Interval{best, best + duration});
  unit.last_end = std::max(unit.last_end, best + duration);
  jobs_.add();
  busy_ps_.add(static_cast<std::uint64_t>(duration.whole_ps()));
  if (!trace_tracks_.empty()) {
    // Bookings of one unit never overlap: one track per unit.
    Trace& trace = *owner_.ctx().trace();
    int& track = trace_tracks_[best_unit];
    if (track == 0)
      track = trace.track(owner_.name(), units_.size() == 1 ? name_ : name_ + " #" + std::to_string(best_unit), name_);
    trace.span(track, best, best + duration, what);
  }
  return best;
}

std::size_t Timeline::bookings() const {
  std::size_t n = 0;
  for (const Unit& u : units_) n += u.bookings.size();
  return n;
}

}  // namespace iowall
