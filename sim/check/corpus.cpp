#include "sim/check/corpus.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "sim/config/json_file.hpp"
#include "sim/config/study.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quote.hpp"

namespace iowall::check {

const char* name(Dimension d) {
  switch (d) {
    case Dimension::bandwidth: return "bandwidth";
    case Dimension::rate: return "rate";
    case Dimension::time: return "time";
    case Dimension::bytes: return "size";
    case Dimension::count: return "count";
  }
  return "?";
}

namespace {

// Operation rates in the units storage people write them in; parse_rate's "M/s" works too.
struct RateUnit {
  const char* suffix;
  double scale;
};
constexpr RateUnit kCorpusRateUnits[] = {{"MIOPS", 1e6}, {"kIOPS", 1e3}, {"KIOPS", 1e3}, {"IOPS", 1.0}};

bool split_number(const std::string& text, double& value, std::string& unit) {
  std::size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  unit = text.substr(used);
  unit.erase(0, unit.find_first_not_of(' '));
  return true;
}

const char* example(Dimension d) {
  switch (d) {
    case Dimension::bandwidth: return "\"6.52 GiB/s\"";
    case Dimension::rate: return "\"24468 IOPS\"";
    case Dimension::time: return "\"163 us\"";
    case Dimension::bytes: return "\"105 GB\"";
    case Dimension::count: return "\"0.8 cores\"";
  }
  return "";
}

}  // namespace

Quantity parse_figure(const std::string& text, Dimension expected, const std::string& file, const std::string& pointer) {
  const auto fail = [&](const std::string& why) {
    throw InputError(file, pointer, fmt::format("\"{}\" {} (expected a {} with its unit, e.g. {})", quote_text(text, 60), why,
                                                name(expected), example(expected)));
  };
  double number = 0;
  std::string unit;
  if (!split_number(text, number, unit) || !std::isfinite(number)) fail("is not a number with a unit");
  if (!(number > 0)) fail("is not positive");
  if (unit.empty()) fail("has no unit");
  Quantity q;
  q.dim = expected;
  switch (expected) {
    case Dimension::bandwidth: {
      Bandwidth bw;
      if (!parse_bandwidth(text, bw).ok) fail("is not a bandwidth");
      q.si = bw.bytes_per_s_value();
      break;
    }
    case Dimension::rate: {
      for (const RateUnit& u : kCorpusRateUnits)
        if (unit == u.suffix) q.si = number * u.scale;
      Rate r;
      if (q.si == 0 && parse_rate(text, r).ok) q.si = r.per_s_value();
      if (q.si == 0) fail("is not an operation rate");
      break;
    }
    case Dimension::time: {
      Time t;
      if (!parse_time(text, t).ok) fail("is not a time");
      q.si = t.seconds();
      break;
    }
    case Dimension::bytes: {
      Bytes b;
      if (!parse_bytes(text, b).ok) fail("is not a size");
      q.si = b.bytes_value();
      break;
    }
    case Dimension::count:
      if (unit != "cores" && unit != "x") fail("is not a count of cores (\"cores\") or a ratio (\"x\")");
      q.si = number;
      break;
  }
  if (!(q.si > 0)) fail("rounds to zero");
  return q;
}

std::string format_quantity(const Quantity& q) {
  switch (q.dim) {
    case Dimension::bandwidth: return fmt::format("{:.4g} GB/s", q.si / 1e9);
    case Dimension::rate: return q.si >= 1e6 ? fmt::format("{:.4g} M/s", q.si / 1e6) : fmt::format("{:.4g} k/s", q.si / 1e3);
    case Dimension::time:
      return q.si >= 1 ? fmt::format("{:.4g} s", q.si) : q.si >= 1e-3 ? fmt::format("{:.4g} ms", q.si * 1e3)
                                                                       : fmt::format("{:.4g} us", q.si * 1e6);
    case Dimension::bytes: return q.si >= 1e12 ? fmt::format("{:.4g} TB", q.si / 1e12) : fmt::format("{:.4g} GB", q.si / 1e9);
    case Dimension::count: return fmt::format("{:.4g}", q.si);
  }
  return "";
}

namespace {

struct MetricInfo {
  Metric metric;
  const char* name;
  Dimension dim;
  Reproduction::Kind kind;
};
constexpr MetricInfo kMetrics[] = {
    {Metric::throughput, "throughput", Dimension::bandwidth, Reproduction::Kind::scenario},
    {Metric::iops, "iops", Dimension::rate, Reproduction::Kind::scenario},
    {Metric::latency_mean, "latency_mean", Dimension::time, Reproduction::Kind::scenario},
    {Metric::latency_p50, "latency_p50", Dimension::time, Reproduction::Kind::scenario},
    {Metric::latency_p99, "latency_p99", Dimension::time, Reproduction::Kind::scenario},
    {Metric::cpu_cores, "cpu_cores", Dimension::count, Reproduction::Kind::scenario},
    {Metric::done, "done", Dimension::time, Reproduction::Kind::scenario},
    {Metric::checkpoint_bytes, "checkpoint_bytes", Dimension::bytes, Reproduction::Kind::plan},
    {Metric::save_time, "save_time", Dimension::time, Reproduction::Kind::plan},
    {Metric::restore_time, "restore_time", Dimension::time, Reproduction::Kind::plan},
};

const MetricInfo* find_metric(const std::string& n) {
  for (const MetricInfo& m : kMetrics)
    if (n == m.name) return &m;
  return nullptr;
}

}  // namespace

const char* name(Metric m) {
  if (m == Metric::study) return "study";
  for (const MetricInfo& i : kMetrics)
    if (i.metric == m) return i.name;
  return "?";
}

Dimension dimension_of(Metric m) {
  for (const MetricInfo& i : kMetrics)
    if (i.metric == m) return i.dim;
  return Dimension::count;
}

std::string Reproduction::key() const {
  switch (kind) {
    case Kind::scenario: return "scenario " + file + " " + set.dump();
    case Kind::plan: return "plan " + file + " " + set.dump();
    case Kind::study: return "study " + study + " " + params.dump();
  }
  return {};
}

std::size_t Corpus::points() const {
  std::size_t n = 0;
  for (const Source& s : sources) n += s.cases.size();
  return n;
}

namespace {

// Field access with errors that name the file and pointer.
class CorpusReader {
public:
  CorpusReader(const Json& j, std::string file, std::string pointer) : j_(j), file_(std::move(file)), ptr_(std::move(pointer)) {
    if (!j_.is_object()) fail(ptr_, "is not an object");
  }
  [[noreturn]] void fail(const std::string& pointer, const std::string& why) const {
    throw InputError(file_, pointer.empty() ? "/" : pointer, why);
  }
  std::string at(const std::string& key) const { return ptr_ + "/" + key; }
  bool has(const std::string& key) const { return j_.contains(key); }
  std::string text(const std::string& key, bool required = true) const {
    if (!j_.contains(key)) {
      if (required) fail(ptr_.empty() ? "/" : ptr_, "\"" + key + "\" is missing");
      return {};
    }
    const Json& v = j_.at(key);
    if (!v.is_string() || v.get<std::string>().empty()) fail(at(key), fmt::format("{} is not a non-empty string", quote_json(v, 60)));
    return v.get<std::string>();
  }
  const Json& object(const std::string& key) const {
    if (!j_.contains(key)) fail(ptr_.empty() ? "/" : ptr_, "\"" + key + "\" is missing");
    if (!j_.at(key).is_object()) fail(at(key), "is not an object");
    return j_.at(key);
  }
  void only(std::initializer_list<const char*> keys) const {
    for (const auto& [k, v] : j_.items()) {
      if (std::none_of(keys.begin(), keys.end(), [&](const char* a) { return k == a; }))
        fail(at(k), fmt::format("unknown key \"{}\" (expected one of: {})", quote_text(k, 40), fmt::join(keys, ", ")));
    }
  }
  const Json& json() const { return j_; }
  const std::string& file() const { return file_; }

private:
  const Json& j_;
  std::string file_, ptr_;
};

Reproduction read_reproduction(const CorpusReader& c, Metric& metric, const std::string& metric_name) {
  Reproduction r;
  const int kinds = int(c.has("scenario")) + int(c.has("plan")) + int(c.has("study"));
  if (kinds != 1) c.fail(c.at("id"), "a case names exactly one of \"scenario\", \"plan\" or \"study\"");
  const MetricInfo* info = find_metric(metric_name);
  if (c.has("study")) {
    r.kind = Reproduction::Kind::study;
    r.study = c.text("study");
    if (!StudyRegistry::instance().find(r.study))
      c.fail(c.at("study"), fmt::format("no study named \"{}\" (studies: {})", quote_text(r.study, 60),
                                        fmt::join(StudyRegistry::instance().names(), ", ")));
    if (c.has("params")) r.params = c.object("params");
    r.where = JsonLocation{c.file(), c.at("params")};
    r.value = metric_name;
    metric = Metric::study;
    if (info) c.fail(c.at("metric"), "\"" + metric_name + "\" is a scenario's or planner's metric, not a study's value");
    return r;
  }
  if (!info)
    c.fail(c.at("metric"), fmt::format("unknown metric \"{}\"", quote_text(metric_name, 40)));
  metric = info->metric;
  r.kind = c.has("scenario") ? Reproduction::Kind::scenario : Reproduction::Kind::plan;
  if (r.kind != info->kind)
    c.fail(c.at("metric"), fmt::format("\"{}\" is read from a {} run", metric_name,
                                       info->kind == Reproduction::Kind::scenario ? "scenario" : "plan"));
  r.file = c.text(r.kind == Reproduction::Kind::scenario ? "scenario" : "plan");
  if (!std::filesystem::is_regular_file(r.file))
    c.fail(c.at(r.kind == Reproduction::Kind::scenario ? "scenario" : "plan"),
           fmt::format("\"{}\" is not a file (paths are relative to the repository root)", quote_text(r.file, 80)));
  if (c.has("set")) {
    r.set = c.object("set");
    for (const auto& [ptr, v] : r.set.items())
      if (ptr.empty() || ptr[0] != '/') c.fail(c.at("set"), fmt::format("\"{}\" is not a JSON pointer", quote_text(ptr, 60)));
  }
  if (r.kind == Reproduction::Kind::scenario) r.path = c.text("path");
  return r;
}

}  // namespace

namespace {

Source source_from_json(const Json& json, const std::string& file, const std::string& id) {
  const CorpusReader top(json, file, "");
  top.only({"$schema", "source", "conditions", "cases"});
  Source s;
  s.id = id;
  s.file = file;
  const CorpusReader src(top.object("source"), file, "/source");
  src.only({"title", "publisher", "year", "url", "where", "kind"});
  s.title = src.text("title");
  s.publisher = src.text("publisher");
  s.where = src.text("where");
  s.url = src.text("url", false);
  if (!src.has("year") || !src.json().at("year").is_number_integer() || src.json().at("year").get<int>() < 1990 ||
      src.json().at("year").get<int>() > 2100)
    src.fail(src.at("year"), "the year of publication (an integer) is missing or out of range");
  s.year = src.json().at("year").get<int>();
  const CorpusReader cond(top.object("conditions"), file, "/conditions");
  cond.only({"hardware", "software", "assumed"});
  s.hardware = cond.text("hardware");
  s.software = cond.text("software");
  if (cond.has("assumed")) {
    const Json& a = cond.json().at("assumed");
    if (!a.is_array()) cond.fail(cond.at("assumed"), "is not an array of strings");
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!a[i].is_string()) cond.fail(cond.at("assumed") + "/" + std::to_string(i), "is not a string");
      s.assumed.push_back(a[i].get<std::string>());
    }
  }
  if (!json.contains("cases") || !json.at("cases").is_array() || json.at("cases").empty())
    top.fail("/cases", "a source needs a non-empty array of cases");
  std::set<std::string> ids;
  const Json& cases = json.at("cases");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string ptr = "/cases/" + std::to_string(i);
    const CorpusReader c(cases[i], file, ptr);
    c.only({"id", "figure", "published", "metric", "scenario", "plan", "study", "set", "path", "params", "note"});
    Case k;
    k.pointer = ptr;
    k.id = c.text("id");
    if (!ids.insert(k.id).second) c.fail(c.at("id"), fmt::format("\"{}\" is used by an earlier case", quote_text(k.id, 60)));
    k.figure = c.text("figure");
    k.note = c.text("note", false);
    const std::string metric = c.text("metric");
    k.run = read_reproduction(c, k.metric, metric);
    k.published_text = c.text("published");
    const Dimension dim = k.metric == Metric::study ? Dimension::count : dimension_of(k.metric);
    if (k.metric == Metric::study) {
      // A study's value takes its dimension from the figure's own unit.
      for (Dimension d : {Dimension::bandwidth, Dimension::rate, Dimension::time, Dimension::bytes, Dimension::count}) {
        try {
          k.published = parse_figure(k.published_text, d, file, c.at("published"));
          break;
        } catch (const InputError&) {
          if (d == Dimension::count) throw;
        }
      }
    } else {
      k.published = parse_figure(k.published_text, dim, file, c.at("published"));
    }
    s.cases.push_back(std::move(k));
  }
  return s;
}

}  // namespace

Source parse_source(const std::string& text, const std::string& file, const std::string& id) {
  return source_from_json(parse_json_text(text, file).json, file, id);
}

Corpus load_corpus(const std::string& folder, const std::string& only) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw InputError("", "--corpus", fmt::format("\"{}\" is not a folder", quote_text(folder, 80)));
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(folder, ec))
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  Corpus corpus;
  for (const fs::path& f : files) {
    const std::string id = f.stem().string();
    if (!only.empty() && id != only) continue;
    corpus.sources.push_back(source_from_json(load_json(f.string()).json, f.string(), id));
  }
  if (!only.empty() && corpus.sources.empty())
    throw InputError("", "--source", fmt::format("no corpus file \"{}.json\" in {}", quote_text(only, 60), quote_text(folder, 80)));
  if (corpus.sources.empty()) throw InputError("", "--corpus", fmt::format("{} holds no corpus files (*.json)", folder));
  return corpus;
}

}  // namespace iowall::check
