#include "sim/core/trace.hpp"
#include "sim/core/interrupt.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace iowall {

namespace {
// Picoseconds to whole nanoseconds, half a nanosecond rounding up (times are not negative).
i64 nearest_ns(i64 ps) { return (ps + 500) / 1000; }
}  // namespace

void Trace::begin_path(const std::string& label, std::size_t paths) {
  paths_.push_back({label, 0, 0, max_events_ / (paths < 1 ? 1 : paths)});
  devices_.clear();
}

void Trace::device(const std::string& device) {
  if (paths_.empty()) paths_.push_back({"", 0, 0, max_events_});  // a simulation outside a run
  auto [it, inserted] = devices_.emplace(device, static_cast<int>(processes_.size()) + 1);
  if (inserted) processes_.push_back(paths_.back().label.empty() ? device : paths_.back().label + ": " + device);
}

int Trace::track(const std::string& device, const std::string& resource, const std::string& carries) {
  this->device(device);
  const int pid = devices_.at(device);
  auto [it, inserted] = track_ids_.emplace(std::to_string(pid) + "\n" + resource, static_cast<int>(tracks_.size()));
  if (inserted) tracks_.push_back({pid, static_cast<int>(tracks_.size()) + 1, resource, carries});
  return it->second + 1;  // 0 stays free for "no track"
}

void Trace::span(int track, Time start, Time end, const char* name) {
  Path& p = paths_.back();
  if (p.recorded >= p.share) {
    ++p.dropped;
    return;
  }
  ++p.recorded;
  events_.push_back({track, name, start.whole_ps(), end.whole_ps()});
}

std::size_t Trace::dropped() const {
  std::size_t n = 0;
  for (const Path& p : paths_) n += p.dropped;
  return n;
}

std::string Trace::to_json() const {
  // Written as text, not built as a JSON document: a million slices would take over a
  // gigabyte as one. Only names need escaping; each is escaped once.
  using nlohmann::json;
  std::string out = "{\"traceEvents\":[";
  bool first = true;
  auto event = [&](const std::string& text) {
    if (!first) out += ',';
    first = false;
    out += text;
  };
  // Metadata events carry ts 0 and a tid too: some trace readers require every field.
  for (std::size_t i = 0; i < processes_.size(); ++i)
    event(fmt::format(R"({{"ph":"M","pid":{},"tid":0,"ts":0,"name":"process_name","args":{{"name":{}}}}})", i + 1,
                      json(processes_[i]).dump()));
  std::vector<std::string> carries;  // per track, escaped
  for (const Track& t : tracks_) {
    event(fmt::format(R"({{"ph":"M","pid":{},"tid":{},"ts":0,"name":"thread_name","args":{{"name":{}}}}})", t.pid,
                      t.tid, json(t.name).dump()));
    carries.push_back(json(t.carries).dump());
  }
  std::map<const char*, std::string> literals;  // names given per slice, escaped
  std::size_t written = 0;
  for (const Event& e : events_) {
    if ((++written & 0xFFFF) == 0) throw_if_interrupted();
    const Track& t = tracks_[static_cast<std::size_t>(e.track - 1)];
    const std::string* name = &carries[static_cast<std::size_t>(e.track - 1)];
    if (e.name) {
      auto [it, inserted] = literals.try_emplace(e.name);
      if (inserted) it->second = json(e.name).dump();
      name = &it->second;
    }
    // ts and dur in microseconds, exact to the nanosecond.
    const i64 start_ns = nearest_ns(e.start_ps), dur_ns = nearest_ns(e.end_ps) - start_ns;
    event(fmt::format(R"({{"ph":"X","pid":{},"tid":{},"name":{},"ts":{}.{:03},"dur":{}.{:03}}})", t.pid, t.tid, *name,
                      start_ns / 1000, start_ns % 1000, dur_ns / 1000, dur_ns % 1000));
  }
  out += R"(],"displayTimeUnit":"ns")";
  if (const std::size_t d = dropped()) {
    json by_path = json::array();
    for (const Path& p : paths_)
      if (p.dropped) by_path.push_back({{"path", p.label}, {"dropped_events", p.dropped}});
    out += ",\"otherData\":" + json{{"dropped_events", d}, {"dropped_events_by_path", by_path}}.dump();
  }
  out += "}";
  return out;
}

}  // namespace iowall
