// An optional event trace in Chrome trace-event JSON (opens in Perfetto): one process
// track per device (and per link), holding one thread track per resource of it;
// complete ("X") events for busy periods, capped so a long run cannot fill the disk.
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
  // Declares a device's process track (devices without resources get one too).
  void device(const std::string& device);
  // Returns the track id (>= 1) of one resource of a device (creating both on first use).
  int track(const std::string& device, const std::string& resource);
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
  struct Track {
    int pid, tid;
    std::string name;
  };
  std::size_t max_events_;
  std::size_t dropped_ = 0;
  std::map<std::string, int> devices_;           // device -> pid
  std::map<std::string, int> track_ids_;         // "device\nresource" -> index into tracks_
  std::vector<Track> tracks_;
  std::vector<Event> events_;
};

}  // namespace iowall
