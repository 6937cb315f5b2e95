// An optional event trace in Chrome trace-event JSON (opens in Perfetto): one track
// per device, complete ("X") events for busy periods, capped so a long run cannot
// fill the disk.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/core/units.hpp"

namespace iowall {

class Trace {
public:
  explicit Trace(std::size_t max_events = 1'000'000) : max_events_(max_events) {}
  // Returns the track id for a device (creating it on first use).
  int track(const std::string& device);
  void span(int track, const char* name, Time start, Time end);
  std::size_t size() const { return events_.size(); }
  std::size_t dropped() const { return dropped_; }
  // Writes the whole trace as JSON text.
  std::string to_json() const;

private:
  struct Event {
    int track;
    const char* name;
    i64 start_ps, end_ps;
  };
  std::size_t max_events_;
  std::size_t dropped_ = 0;
  std::map<std::string, int> tracks_;
  std::vector<Event> events_;
};

}  // namespace iowall
