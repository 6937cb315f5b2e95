#include "sim/report/run_table.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace iowall {

std::string run_table(const nlohmann::json& r) {
  const auto& w = r.at("workload");
  std::string out = fmt::format("{}  ({}, {} x {} {}, {} threads x QD{}, {} fidelity, seed {})\n",
                                r.at("scenario").get<std::string>(), r.at("topology").get<std::string>(),
                                w.value("size", "1 GiB"), w.value("io_size", "1 MiB"),
                                w.value("kind", "sequential_read"), w.value("threads", 1), w.value("qd", 1),
                                r.at("fidelity").get<std::string>(), r.at("seed").get<std::uint64_t>());
  // The path column is as wide as the longest label, at least 12.
  std::size_t width = 12;
  for (const auto& name : r.at("paths")) width = std::max(width, name.get<std::string>().size());
  out += fmt::format("{:<{}} {:>8} {:>9} {:>9} {:>10} {:>8}  {}\n", "path", width, "GB/s", "p50 us", "p99 us",
                     "CPU cores", "done s", "limited by");
  for (const auto& name : r.at("paths")) {
    const auto& m = r.at("metrics").at(name.get<std::string>());
    std::string limit = "-";
    if (m.contains("limited_by") && !m["limited_by"].is_null())
      limit = fmt::format("{} ({:.0f}%)", m["limited_by"]["resource"].get<std::string>(),
                          m["limited_by"]["utilization"].get<double>() * 100);
    out += fmt::format("{:<{}} {:>8.2f} {:>9.1f} {:>9.1f} {:>10.2f} {:>8.4f}  {}\n", name.get<std::string>(), width,
                       m["throughput_GBps"].get<double>(), m["latency_p50_us"].get<double>(),
                       m["latency_p99_us"].get<double>(), m["cpu_cores_busy"].get<double>(),
                       m["last_done_s"].get<double>(), limit);
    if (m.contains("note")) out += fmt::format("{:<{}} note: {}\n", "", width, m["note"].get<std::string>());
  }
  return out;
}

std::string run_csv(const nlohmann::json& r) {
  std::string out =
      "scenario,path,throughput_GBps,iops,latency_mean_us,latency_p50_us,latency_p99_us,cpu_cores_busy,first_done_s,"
      "last_done_s,limited_by,limited_by_utilization\n";
  for (const auto& name : r.at("paths")) {
    const auto& m = r.at("metrics").at(name.get<std::string>());
    const bool lim = m.contains("limited_by") && !m["limited_by"].is_null();
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", r.at("scenario").get<std::string>(),
                       name.get<std::string>(), m["throughput_GBps"].dump(), m["iops"].dump(),
                       m["latency_mean_us"].dump(), m["latency_p50_us"].dump(), m["latency_p99_us"].dump(),
                       m["cpu_cores_busy"].dump(), m["first_done_s"].dump(), m["last_done_s"].dump(),
                       lim ? m["limited_by"]["resource"].get<std::string>() : "",
                       lim ? m["limited_by"]["utilization"].dump() : "");
  }
  return out;
}

}  // namespace iowall
