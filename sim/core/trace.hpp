// An optional event trace in Chrome trace-event JSON (opens in Perfetto): one process
// per data path and device (or link), holding one thread track per resource of it, and
// one per unit of a resource with several (a CPU core, a copy engine, a NAND plane), so
// the slices of a track never overlap. A slice is one job of the resource, named by
// what it carries ("command", "copy", "PCIe TLPs"). Each path may record its share of
// the events, so a long run cannot fill the disk and every path appears.
// Times go out rounded to whole nanoseconds, the resolution trace readers keep (they
// turn the microseconds of `ts` and `dur` into integer nanoseconds each on its own):
// rounding both ends of every slice, not its length, keeps slices that follow one
// another from overlapping after the readers' rounding.
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
  // Starts a data path: the devices and tracks declared from now on belong to it (their
  // processes are named "label: device") and it may record up to `share` of the events.
  void begin_path(const std::string& label, std::size_t paths);
  // Declares a device's process (devices without resources get one too).
  void device(const std::string& device);
  // Returns the track id (>= 1) of one resource (or one unit of it) of a device, creating
  // both on first use; `carries` names its slices.
  int track(const std::string& device, const std::string& resource, const std::string& carries);
  // One job on a track, named by what the track carries, or by `name` (a string literal).
  void span(int track, Time start, Time end, const char* name = nullptr);
  std::size_t size() const { return events_.size(); }
  std::size_t dropped() const;
  // Writes the whole trace as JSON text.
  std::string to_json() const;

private:
  struct Event {
    int track;
    const char* name;  // null: the track's
    i64 start_ps, end_ps;
  };
  struct Track {
    int pid, tid;
    std::string name, carries;
  };
  struct Path {
    std::string label;
    std::size_t recorded = 0, dropped = 0, share = 0;
  };
  std::size_t max_events_;
  std::vector<Path> paths_;
  std::vector<std::string> processes_;           // process names; pid = index + 1
  std::map<std::string, int> devices_;           // device of the current path -> pid
  std::map<std::string, int> track_ids_;         // "pid\nresource" -> index into tracks_
  std::vector<Track> tracks_;
  std::vector<Event> events_;
};

}  // namespace iowall
