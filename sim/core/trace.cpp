#include "sim/core/trace.hpp"

#include <nlohmann/json.hpp>

namespace iowall {

int Trace::track(const std::string& device) {
  auto [it, inserted] = tracks_.emplace(device, static_cast<int>(tracks_.size()) + 1);
  return it->second;
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
  json events = json::array();
  events.push_back({{"ph", "M"}, {"pid", 1}, {"name", "process_name"}, {"args", {{"name", "iowall"}}}});
  for (const auto& [name, id] : tracks_)
    events.push_back({{"ph", "M"}, {"pid", 1}, {"tid", id}, {"name", "thread_name"}, {"args", {{"name", name}}}});
  for (const Event& e : events_)
    events.push_back({{"ph", "X"},
                      {"pid", 1},
                      {"tid", e.track},
                      {"name", e.name},
                      {"ts", static_cast<double>(e.start_ps) / 1e6},  // microseconds
                      {"dur", static_cast<double>(e.end_ps - e.start_ps) / 1e6}});
  json doc = {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
  if (dropped_) doc["otherData"] = {{"dropped_events", dropped_}};
  return doc.dump();
}

}  // namespace iowall
