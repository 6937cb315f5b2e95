// A resource booked ahead instead of queued: `units` identical units, each with a list
// of the intervals it is booked for. A request arriving at a known time takes the
// earliest gap on any unit that holds its whole duration. Requests that arrive in time
// order are served first come first served, exactly as a FIFO Server would serve them,
// but without an event per job; a request computed late for an earlier arrival (a page
// whose sensing ended sooner) fills a gap if one fits, and otherwise goes after the
// bookings already made. Used where a whole operation's timing can be computed when it
// starts (the pages of one NAND command), so the operation costs one event, not two
// per page. Under a trace, each booking is a slice on the track of its unit.
#pragma once
#include <string>
#include <vector>

#include "sim/core/component.hpp"

namespace iowall {

class Timeline {
public:
  Timeline(Component& owner, std::string name, int units = 1);
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // Books `duration` arriving at `arrival` (not before now); returns when it starts.
  // `what` (a string literal) names the booking's slice in a trace: "sense", "program".
  Time book(Time arrival, Time duration, const char* what = nullptr);
  std::uint64_t jobs() const { return jobs_.value(); }
  Time busy_time() const { return Time(static_cast<i64>(busy_ps_.value())); }
  std::size_t bookings() const;

private:
  struct Interval {
    Time start, end;
  };
  struct Unit {
    Time last_end{};                 // end of the latest booking: most requests come after it
    std::vector<Interval> bookings;  // sorted by start, non-overlapping
  };
  // Drops intervals that ended before now: nothing can be booked in the past.
  void forget_past(std::vector<Interval>& unit) const;
  // Earliest start >= arrival on `unit` with room for `duration`, and the index to insert at.
  static std::pair<Time, std::size_t> earliest_gap(const std::vector<Interval>& unit, Time arrival, Time duration);

  Component& owner_;
  std::string name_;
  std::vector<Unit> units_;
  Counter jobs_, busy_ps_;
  std::vector<int> trace_tracks_;  // under a trace: each unit's track (created on first use)
};

}  // namespace iowall
