#include "sim/report/run_table.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/report/json_fields.hpp"

namespace iowall {

std::string run_table(const RunResult& r) {
  // The workload line echoes the scenario's input as given.
  const auto& w = r.workload;
  std::string out = fmt::format("{}  ({}, {} x {} {}, {} threads x QD{}, {} fidelity, seed {})\n", r.scenario,
                                r.topology, w.value("size", "1 GiB"), w.value("io_size", "1 MiB"),
                                w.value("kind", "sequential_read"), w.value("threads", 1), w.value("qd", 1),
                                r.fidelity, r.seed.value_or(0));
  // The path column is as wide as the longest label, at least 12.
  std::size_t width = 12;
  for (const PathResult& p : r.paths) width = std::max(width, p.label.size());
  out += fmt::format("{:<{}} {:>8} {:>9} {:>9} {:>10} {:>8}  {}\n", "path", width, "GB/s", "p50 us", "p99 us",
                     "CPU cores", "done s", "limited by");
  for (const PathResult& p : r.paths) {
    const PathMetrics& m = p.metrics;
    std::string limit = "-";
    if (m.limited_by) limit = fmt::format("{} ({:.0f}%)", m.limited_by->resource, m.limited_by->utilization * 100);
    out += fmt::format("{:<{}} {:>8.2f} {:>9.1f} {:>9.1f} {:>10.2f} {:>8.4f}  {}\n", p.label, width, m.throughput_GBps,
                       m.latency_p50_us, m.latency_p99_us, m.cpu_cores_busy, m.last_done_s, limit);
    if (!m.note.empty()) out += fmt::format("{:<{}} note: {}\n", "", width, m.note);
    if (m.write_phase_s)
      out += fmt::format("{:<{}} writes done {:.4f} s, durable {}\n", "", width, *m.write_phase_s,
                         m.durable_s ? fmt::format("{:.4f} s", *m.durable_s) : std::string("never (durability none)"));
    for (const PhaseMetrics& ph : m.phases) {
      std::string limit = "-";
      if (ph.limited_by) limit = fmt::format("{} ({:.0f}%)", ph.limited_by->resource, ph.limited_by->utilization * 100);
      out += fmt::format("{:<{}}   {:<16} {:>9.4f} s  limited by {}\n", "", width, ph.name, ph.seconds, limit);
    }
  }
  return out;
}

namespace {

const char* const kRunCsvHeader =
    "scenario,path,throughput_GBps,iops,latency_mean_us,latency_p50_us,latency_p99_us,cpu_cores_busy,first_done_s,"
    "last_done_s,limited_by,limited_by_utilization\n";

// A field as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string run_rows(const RunResult& r, const std::string& prefix) {
  std::string out;
  for (const PathResult& p : r.paths) {
    const PathMetrics& m = p.metrics;
    out += prefix;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", r.scenario, p.label, json_number_text(m.throughput_GBps),
                       json_number_text(m.iops), json_number_text(m.latency_mean_us),
                       json_number_text(m.latency_p50_us), json_number_text(m.latency_p99_us),
                       json_number_text(m.cpu_cores_busy), json_number_text(m.first_done_s),
                       json_number_text(m.last_done_s), m.limited_by ? m.limited_by->resource : "",
                       m.limited_by ? json_number_text(m.limited_by->utilization) : "");
  }
  return out;
}

}  // namespace

std::string run_csv(const RunResult& r) { return kRunCsvHeader + run_rows(r, ""); }

std::string sweep_csv(const SweepResult& r) {
  std::vector<std::string> axes;
  for (const SweepPointResult& p : r.points)
    for (const auto& [k, v] : p.values.items())
      if (std::find(axes.begin(), axes.end(), k) == axes.end()) axes.push_back(k);
  std::string out = "point";
  for (const std::string& a : axes) out += "," + csv_field(a);
  out += std::string(",") + kRunCsvHeader;
  for (const SweepPointResult& p : r.points) {
    std::string prefix = std::to_string(p.index);
    for (const std::string& a : axes) {
      prefix += ",";
      if (p.values.contains(a)) {
        const auto& v = p.values[a];
        prefix += csv_field(v.is_string() ? v.get<std::string>() : v.dump());
      }
    }
    out += run_rows(p.result, prefix + ",");
  }
  return out;
}

}  // namespace iowall
