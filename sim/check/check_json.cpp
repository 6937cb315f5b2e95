// The check result as JSON, written once here and read back the same way (the committed
// baseline of the accuracy ratchet, `iowall report`).
#include <cmath>

#include <fmt/format.h>

#include "sim/check/check.hpp"
#include "sim/core/error.hpp"
#include "sim/report/result_file.hpp"

namespace iowall::check {
namespace {

double rounded_value(double v, int digits) {
  const double f = std::pow(10.0, digits);
  return std::round(v * f) / f;
}

// `digits` significant digits: a figure in SI units spans bytes per second to nanoseconds,
// so a fixed count of decimals would round a 12 us latency to 12.0 and 500 ns to nothing.
double significant(double v, int digits) {
  if (v == 0 || !std::isfinite(v)) return v;
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  const double f = std::pow(10.0, digits - 1 - exponent);
  return std::round(v * f) / f;
}

Json quantity_json(const Quantity& q) { return {{"value", significant(q.si, 6)}, {"dimension", name(q.dim)}}; }

Dimension dimension_named(const std::string& s, const std::string& file, const std::string& ptr) {
  for (Dimension d : {Dimension::bandwidth, Dimension::rate, Dimension::time, Dimension::bytes, Dimension::count})
    if (s == name(d)) return d;
  throw InputError(file, ptr, fmt::format("\"{}\" is not a dimension", s));
}

// Typed access with errors naming the file and pointer.
const Json& check_field(const Json& j, const char* key, const std::string& file, const std::string& ptr) {
  if (!j.is_object() || !j.contains(key)) throw InputError(file, ptr, fmt::format("\"{}\" is missing", key));
  return j.at(key);
}
double check_number(const Json& j, const char* key, const std::string& file, const std::string& ptr) {
  const Json& v = check_field(j, key, file, ptr);
  if (!v.is_number()) throw InputError(file, ptr + "/" + key, "is not a number");
  return v.get<double>();
}
std::string text(const Json& j, const char* key, const std::string& file, const std::string& ptr) {
  const Json& v = check_field(j, key, file, ptr);
  if (!v.is_string()) throw InputError(file, ptr + "/" + key, "is not a string");
  return v.get<std::string>();
}
Quantity check_quantity(const Json& j, const char* key, const std::string& file, const std::string& ptr) {
  const Json& q = check_field(j, key, file, ptr);
  const std::string at = ptr + "/" + key;
  return {check_number(q, "value", file, at), dimension_named(text(q, "dimension", file, at), file, at + "/dimension")};
}

}  // namespace

Json check_json(const CheckResult& r) {
  Json sources = Json::array();
  for (const SourceSummary& s : r.sources)
    sources.push_back({{"id", s.id},
                       {"title", s.title},
                       {"publisher", s.publisher},
                       {"year", s.year},
                       {"url", s.url},
                       {"points", s.points},
                       {"median_abs_error", rounded_value(s.median_abs_error, 4)},
                       {"max_abs_error", rounded_value(s.max_abs_error, 4)}});
  Json cases = Json::array();
  for (const PointResult& p : r.points)
    cases.push_back({{"source", p.source},
                     {"id", p.id},
                     {"figure", p.figure},
                     {"metric", p.metric},
                     {"published_text", p.published_text},
                     {"published", quantity_json(p.published)},
                     {"simulated", quantity_json(p.simulated)},
                     {"error", rounded_value(p.error, 4)},
                     {"limited_by", p.limited_by},
                     {"note", p.note}});
  return {{"iowall_result", result_marker("check")},
          {"points", r.points.size()},
          {"sources", r.sources.size()},
          {"median_abs_error", rounded_value(r.median_abs_error, 4)},
          {"max_abs_error", rounded_value(r.max_abs_error, 4)},
          {"per_source", sources},
          {"cases", cases}};
}

CheckResult check_from_json(const Json& j, const std::string& file) {
  // The marker's version is checked by result_from_json, which calls this for the shape.
  const Json& marker = check_field(j, "iowall_result", file, "");
  if (text(marker, "kind", file, "/iowall_result") != "check")
    throw InputError(file, "/iowall_result/kind", "is not \"check\"");
  CheckResult r;
  r.median_abs_error = check_number(j, "median_abs_error", file, "");
  r.max_abs_error = check_number(j, "max_abs_error", file, "");
  const Json& sources = check_field(j, "per_source", file, "");
  const Json& cases = check_field(j, "cases", file, "");
  if (!sources.is_array()) throw InputError(file, "/per_source", "is not an array");
  if (!cases.is_array()) throw InputError(file, "/cases", "is not an array");
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::string ptr = "/per_source/" + std::to_string(i);
    SourceSummary s;
    s.id = text(sources[i], "id", file, ptr);
    s.title = text(sources[i], "title", file, ptr);
    s.publisher = text(sources[i], "publisher", file, ptr);
    s.url = text(sources[i], "url", file, ptr);
    s.year = static_cast<int>(check_number(sources[i], "year", file, ptr));
    s.points = static_cast<std::size_t>(check_number(sources[i], "points", file, ptr));
    s.median_abs_error = check_number(sources[i], "median_abs_error", file, ptr);
    s.max_abs_error = check_number(sources[i], "max_abs_error", file, ptr);
    r.sources.push_back(std::move(s));
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string ptr = "/cases/" + std::to_string(i);
    const Json& c = cases[i];
    PointResult p;
    p.source = text(c, "source", file, ptr);
    p.id = text(c, "id", file, ptr);
    p.figure = text(c, "figure", file, ptr);
    p.metric = text(c, "metric", file, ptr);
    p.published_text = text(c, "published_text", file, ptr);
    p.published = check_quantity(c, "published", file, ptr);
    p.simulated = check_quantity(c, "simulated", file, ptr);
    p.error = check_number(c, "error", file, ptr);
    p.limited_by = text(c, "limited_by", file, ptr);
    p.note = text(c, "note", file, ptr);
    r.points.push_back(std::move(p));
  }
  return r;
}

}  // namespace iowall::check
