#include "sim/core/trace.hpp"
#include "sim/core/interrupt.hpp"

#include <nlohmann/json.hpp>

namespace iowall {

void Trace::device(const std::string& device) { devices_.emplace(device, static_cast<int>(devices_.size()) + 1); }

int Trace::track(const std::string& device, const std::string& resource) {
  this->device(device);
  const int pid = devices_.at(device);
  auto [it, inserted] = track_ids_.emplace(device + "\n" + resource, static_cast<int>(tracks_.size()));
  if (inserted) tracks_.push_back({pid, static_cast<int>(tracks_.size()) + 1, resource});
  return it->second + 1;  // 0 stays free for "no track"
}

void Trace::span(int track, const char* name, Time start, Time end) {
  if (events_.size() >= max_events_) {
    ++dropped_;
    return;
  }
  events_.push_back({track, name, start.ps, end.ps});
}

std::string Trace::to_json() const {
  using nlohmann::json;
  // Metadata events carry ts 0 and a tid too: some trace readers require every field.
  json events = json::array();
  for (const auto& [name, pid] : devices_)
    events.push_back({{"ph", "M"}, {"pid", pid}, {"tid", 0}, {"ts", 0}, {"name", "process_name"}, {"args", {{"name", name}}}});
  for (const Track& t : tracks_)
    events.push_back(
        {{"ph", "M"}, {"pid", t.pid}, {"tid", t.tid}, {"ts", 0}, {"name", "thread_name"}, {"args", {{"name", t.name}}}});
  std::size_t written = 0;
  for (const Event& e : events_) {
    if ((++written & 0xFFFF) == 0) throw_if_interrupted();
    const Track& t = tracks_[static_cast<std::size_t>(e.track - 1)];
    events.push_back({{"ph", "X"},
                      {"pid", t.pid},
                      {"tid", t.tid},
                      {"name", e.name},
                      {"ts", static_cast<double>(e.start_ps) / 1e6},  // microseconds
                      {"dur", static_cast<double>(e.end_ps - e.start_ps) / 1e6}});
  }
  json doc = {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
  if (dropped_) doc["otherData"] = {{"dropped_events", dropped_}};
  return doc.dump();
}

}  // namespace iowall
