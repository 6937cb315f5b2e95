// A run's statistics to and from their JSON form.
#include <algorithm>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "sim/report/json_fields.hpp"
#include "sim/report/stats_writers.hpp"

namespace iowall {

using nlohmann::json;

namespace {

json series_json(const StatSeries& s) { return {{"period_s", s.period_s}, {"values", s.values}}; }

StatSeries series_from(const JsonFields& f) {
  StatSeries s;
  s.period_s = f.number("period_s");
  if (f.has("values")) {
    const json& v = f.at("values");
    if (!v.is_array()) f.fail("values", "not an array of numbers");
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_number() && !v[i].is_null()) f.fail("values", i, "not a number");
      s.values.push_back(v[i].is_null() ? std::numeric_limits<double>::quiet_NaN() : v[i].get<double>());
    }
  }
  return s;
}

StatKind stats_kind_of(const JsonFields& f) {
  if (f.has("value")) return StatKind::counter;
  if (f.has("percentile")) return StatKind::histogram;
  if (f.has("period_s") && !f.has("mean")) return StatKind::series;
  return StatKind::gauge;
}

StatRecord stat_from_json(const json& j, const std::string& file, const std::string& at) {
  const JsonFields f(j, file, at);
  StatRecord r;
  r.kind = stats_kind_of(f);
  r.unit = f.text("unit");
  switch (r.kind) {
    case StatKind::counter: r.value = f.unsigned_integer("value"); break;
    case StatKind::gauge:
      r.mean = f.number("mean");
      r.max = f.integer("max");
      if (f.has("capacity")) r.capacity = f.integer("capacity");
      if (f.has("series")) r.series = series_from(JsonFields(f.at("series"), file, f.pointer("series")));
      break;
    case StatKind::histogram: {
      r.count = f.unsigned_integer("count");
      r.min = f.unsigned_integer("min");
      r.max = f.integer("max");
      r.mean = f.number("mean");
      r.stddev = f.number("stddev");
      const JsonFields p(f.at("percentile"), file, f.pointer("percentile"));
      for (const auto& [key, v] : f.at("percentile").items()) {
        char* end = nullptr;
        const double percent = std::strtod(key.c_str(), &end);
        if (key.empty() || *end != '\0') p.fail(key, "not a percentile (expected e.g. \"99.000000\")");
        r.percentiles.emplace_back(percent, p.unsigned_integer(key.c_str()));
      }
      std::sort(r.percentiles.begin(), r.percentiles.end());
      break;
    }
    case StatKind::series: r.series = series_from(f); break;
  }
  return r;
}

}  // namespace

json stat_to_json(const StatRecord& r) {
  json v;
  switch (r.kind) {
    case StatKind::counter: v = {{"value", r.value}}; break;
    case StatKind::gauge:
      v = {{"mean", r.mean}, {"max", r.max}};
      if (r.series) v["series"] = series_json(*r.series);
      if (r.capacity) v["capacity"] = *r.capacity;
      break;
    case StatKind::histogram: {
      json pct = json::object();
      for (const auto& [p, value] : r.percentiles) pct[fmt::format("{:.6f}", p)] = value;
      v = {{"count", r.count}, {"min", r.min},       {"max", r.max},
           {"mean", r.mean},   {"stddev", r.stddev}, {"percentile", pct}};
      break;
    }
    case StatKind::series: v = r.series ? series_json(*r.series) : series_json({}); break;
  }
  v["unit"] = r.unit;
  return v;
}

json stats_to_json(const StatsResult& stats) {
  json out = json::object();
  for (const auto& [path, r] : stats) out[path] = stat_to_json(r);
  return out;
}

StatsResult stats_from_json(const json& j, const std::string& file, const std::string& at) {
  const JsonFields f(j, file, at);
  StatsResult out;
  for (const auto& [path, v] : j.items()) out[path] = stat_from_json(v, file, f.pointer(path));
  return out;
}

}  // namespace iowall
