// The one writer of the run and sweep result JSON, and its reader.
#include "sim/report/run_result_json.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/report/json_fields.hpp"
#include "sim/report/result_file.hpp"
#include "sim/report/stats_writers.hpp"

namespace iowall {

using nlohmann::json;

namespace {

json limited_by_json(const std::optional<LimitedBy>& l) {
  if (!l) return nullptr;
  return {{"resource", l->resource}, {"utilization", l->utilization}};
}

json metrics_json(const PathMetrics& m) {
  json jobs = json::array();
  for (const JobSummary& j : m.jobs)
    jobs.push_back({{"target", j.target},
                    {"bytes", j.bytes},
                    {"throughput_GBps", j.throughput_GBps},
                    {"first_done_s", j.first_done_s},
                    {"last_done_s", j.last_done_s}});
  json out = {{"throughput_GBps", m.throughput_GBps},
              {"iops", m.iops},
              {"latency_mean_us", m.latency_mean_us},
              {"latency_p50_us", m.latency_p50_us},
              {"latency_p99_us", m.latency_p99_us},
              {"latency_p999_us", m.latency_p999_us},
              {"cpu_cores_busy", m.cpu_cores_busy},
              {"bytes", m.bytes},
              {"ios", m.ios},
              {"first_done_s", m.first_done_s},
              {"last_done_s", m.last_done_s},
              {"events", m.events},
              {"limited_by", limited_by_json(m.limited_by)},
              {"jobs", jobs}};
  if (m.iops_per_cpu_core) out["iops_per_cpu_core"] = *m.iops_per_cpu_core;
  if (!m.note.empty()) out["note"] = m.note;
  if (m.write_phase_s) {
    out["write_phase_s"] = *m.write_phase_s;
    out["durable_s"] = m.durable_s ? json(*m.durable_s) : json(nullptr);
  }
  if (!m.phases.empty()) {
    json phases = json::array();
    for (const PhaseMetrics& p : m.phases)
      phases.push_back({{"name", p.name},
                        {"seconds", p.seconds},
                        {"start_s", p.start_s},
                        {"end_s", p.end_s},
                        {"limited_by", limited_by_json(p.limited_by)}});
    out["phases"] = phases;
  }
  return out;
}

json topology_summary_json(const TopologySummary& t) {
  json models = json::object();
  for (const auto& [model, n] : t.devices) models[model] = n;
  return {{"device_count", t.device_count}, {"devices", models}, {"links", t.links}};
}

// --- reading ---

std::optional<LimitedBy> limited_by_from(const JsonFields& m) {
  if (!m.has("limited_by") || m.at("limited_by").is_null()) return std::nullopt;
  const JsonFields f(m.at("limited_by"), m.file(), m.pointer("limited_by"), "neither null nor an object");
  return LimitedBy{f.text("resource"), f.number("utilization")};
}

PathMetrics metrics_from(const JsonFields& f) {
  PathMetrics m;
  if (f.has("throughput_GBps") && !f.at("throughput_GBps").is_number()) f.fail("throughput_GBps", "not a number");
  m.throughput_GBps = f.number("throughput_GBps");
  m.iops = f.number("iops");
  m.latency_mean_us = f.number("latency_mean_us");
  m.latency_p50_us = f.number("latency_p50_us");
  m.latency_p99_us = f.number("latency_p99_us");
  m.latency_p999_us = f.number("latency_p999_us");
  m.cpu_cores_busy = f.number("cpu_cores_busy");
  m.iops_per_cpu_core = f.optional_number("iops_per_cpu_core");
  m.bytes = f.integer("bytes");
  m.ios = f.unsigned_integer("ios");
  m.first_done_s = f.number("first_done_s");
  m.last_done_s = f.number("last_done_s");
  m.events = f.unsigned_integer("events");
  m.limited_by = limited_by_from(f);
  if (f.has("jobs")) {
    const json& jobs = f.at("jobs");
    if (!jobs.is_array()) f.fail("jobs", "not an array of jobs");
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const JsonFields j(jobs[i], f.file(), f.pointer("jobs", i));
      m.jobs.push_back({j.text("target"), j.integer("bytes"), j.number("throughput_GBps"), j.number("first_done_s"),
                        j.number("last_done_s")});
    }
  }
  m.note = f.text("note");
  m.write_phase_s = f.optional_number("write_phase_s");
  if (f.has("durable_s") && !f.at("durable_s").is_null()) m.durable_s = f.number("durable_s");
  if (f.has("phases")) {
    const json& phases = f.at("phases");
    if (!phases.is_array()) f.fail("phases", "not an array of phases");
    for (std::size_t i = 0; i < phases.size(); ++i) {
      const JsonFields p(phases[i], f.file(), f.pointer("phases", i));
      m.phases.push_back({p.text("name"), p.number("seconds"), p.number("start_s"), p.number("end_s"),
                          limited_by_from(p)});
    }
  }
  if (!f.has("throughput_GBps")) f.fail("throughput_GBps", "missing");
  return m;
}

std::optional<TopologySummary> topology_summary_from(const JsonFields& r) {
  if (!r.has("topology_summary")) return std::nullopt;
  const JsonFields f(r.at("topology_summary"), r.file(), r.pointer("topology_summary"));
  TopologySummary t;
  t.device_count = f.unsigned_integer("device_count");
  t.links = f.unsigned_integer("links");
  if (f.has("devices")) {
    const JsonFields d(f.at("devices"), r.file(), f.pointer("devices"));
    for (const auto& item : f.at("devices").items()) t.devices[item.key()] = d.unsigned_integer(item.key().c_str());
  }
  return t;
}

}  // namespace

json to_json(const RunResult& r) {
  json paths = json::array(), metrics = json::object(), stats = json::object();
  for (const PathResult& p : r.paths) {
    paths.push_back(p.label);
    metrics[p.label] = metrics_json(p.metrics);
    stats[p.label] = stats_to_json(p.stats);
  }
  json out = {{"iowall_result", result_marker("run")},
              {"scenario", r.scenario},
              {"description", r.description},
              {"topology", r.topology},
              {"fidelity", r.fidelity},
              {"workload", r.workload},
              {"paths", paths},
              {"metrics", metrics},
              {"stats", stats}};
  if (r.iowall_version) out["iowall_version"] = *r.iowall_version;
  if (r.topology_summary) out["topology_summary"] = topology_summary_json(*r.topology_summary);
  if (r.seed) out["seed"] = *r.seed;
  return out;
}

json to_json(const SweepPointResult& p) { return {{"index", p.index}, {"values", p.values}, {"result", to_json(p.result)}}; }

json to_json(const SweepResult& r) {
  json points = json::array();
  for (const SweepPointResult& p : r.points) points.push_back(to_json(p));
  json out = {{"iowall_result", result_marker("sweep")}, {"scenario", r.scenario}, {"points", std::move(points)}};
  if (r.iowall_version) out["iowall_version"] = *r.iowall_version;
  if (r.shard) out["shard"] = *r.shard;
  if (r.sweep_points) out["sweep_points"] = *r.sweep_points;
  return out;
}

RunResult run_result_from_json(const json& j, const std::string& file, const std::string& at) {
  const JsonFields f(j, file, at);
  if (!f.has("paths") || !f.at("paths").is_array() || f.at("paths").empty())
    f.fail("paths", "missing, empty or not an array of data path names");
  if (!f.has("metrics") || !f.at("metrics").is_object()) f.fail("metrics", "missing or not an object");
  const JsonFields metrics(f.at("metrics"), file, f.pointer("metrics"));
  const json* stats = nullptr;
  if (f.has("stats")) {
    if (!f.at("stats").is_object()) f.fail("stats", "not an object");
    stats = &f.at("stats");
  }
  RunResult r;
  const json& paths = f.at("paths");
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (!paths[i].is_string()) f.fail("paths", i, "not a data path name");
    PathResult p;
    p.label = paths[i].get<std::string>();
    if (!metrics.has(p.label.c_str())) metrics.fail(p.label, "missing or not an object");
    p.metrics = metrics_from(JsonFields(metrics.at(p.label.c_str()), file, metrics.pointer(p.label),
                                        "missing or not an object"));
    if (stats && stats->contains(p.label)) p.stats = stats_from_json((*stats)[p.label], file, JsonFields(*stats, file, f.pointer("stats")).pointer(p.label));
    r.paths.push_back(std::move(p));
  }
  r.iowall_version = f.optional_text("iowall_version");
  r.scenario = f.text("scenario");
  r.description = f.text("description");
  r.topology = f.text("topology");
  r.topology_summary = topology_summary_from(f);
  r.seed = f.optional_unsigned("seed");
  r.fidelity = f.text("fidelity");
  if (f.has("workload")) {
    if (!f.at("workload").is_object()) f.fail("workload", "not an object");
    r.workload = f.at("workload");
  }
  return r;
}

SweepPointResult sweep_point_from_json(const json& j, const std::string& file, const std::string& at,
                                       std::size_t position) {
  if (!j.is_object() || !j.contains("result")) throw InputError(file, at, "not a sweep point (expected values and a result)");
  const JsonFields f(j, file, at);
  SweepPointResult p;
  p.index = f.has("index") ? f.unsigned_integer("index") : position;
  if (f.has("values")) {
    if (!f.at("values").is_object()) f.fail("values", "not an object");
    p.values = f.at("values");
  }
  p.result = run_result_from_json(f.at("result"), file, f.pointer("result"));
  return p;
}

SweepResult sweep_result_from_json(const json& j, const std::string& file) {
  const JsonFields f(j, file, "");
  if (!f.has("points") || !f.at("points").is_array() || f.at("points").empty())
    f.fail("points", "missing, empty or not an array of sweep points");
  SweepResult r;
  r.iowall_version = f.optional_text("iowall_version");
  r.scenario = f.text("scenario");
  r.shard = f.optional_text("shard");
  if (const auto n = f.optional_unsigned("sweep_points")) r.sweep_points = *n;
  const json& points = f.at("points");
  for (std::size_t i = 0; i < points.size(); ++i)
    r.points.push_back(sweep_point_from_json(points[i], file, fmt::format("/points/{}", i), i));
  return r;
}

}  // namespace iowall
