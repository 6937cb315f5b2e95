// A copy measurement in fio's JSON shape, and its one-line summary.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "measure/host_copy.hpp"
#include "measure/report.hpp"

namespace iowall::measure {
namespace {

using ojson = nlohmann::ordered_json;

std::string job_name(const MeasureOptions& o) {
  if (o.copy.kind == CopyKind::cpu_pass) return fmt::format("copy.cpu_pass.{}.{}", name(o.copy.pass), name(o.copy.memory));
  return fmt::format("copy.{}.{}", name(o.copy.kind), name(o.copy.memory));
}

std::string direction(CopyKind k) {
  switch (k) {
    case CopyKind::d2h: return "device_to_host";
    case CopyKind::h2d: return "host_to_device";
    case CopyKind::cpu_pass: return "host";
    case CopyKind::none: break;
  }
  return "";
}

ojson copy_section(const CopyRepeat& r) {
  ojson j;
  const double bw = r.seconds > 0 ? static_cast<double>(r.bytes) / r.seconds : 0.0;
  j["io_bytes"] = r.bytes;
  j["io_kbytes"] = r.bytes / 1024;
  j["bw_bytes"] = static_cast<std::uint64_t>(bw);
  j["bw"] = static_cast<std::uint64_t>(bw / 1024);
  j["iops"] = r.seconds > 0 ? static_cast<double>(r.chunks) / r.seconds : 0.0;
  j["runtime"] = static_cast<std::uint64_t>(r.seconds * 1000.0 + 0.5);
  j["total_ios"] = r.chunks;
  j["lat_ns"] = latency_json(r.lat_ns);
  return j;
}

}  // namespace

ojson copy_to_json(const CopyRunInfo& info) {
  const MeasureOptions& o = info.options;
  ojson root;
  root["iowall_version"] = fmt::format("iowall-{}", kIowallVersion);
  root["timestamp"] = info.unix_time;
  root["jobs"] = ojson::array();
  ojson repeats = ojson::array();
  for (const auto& r : info.repeats) {
    ojson job;
    job["jobname"] = job_name(o);
    job["groupid"] = r.repeat - 1;
    job["error"] = 0;
    job["job options"] = {{"size", std::to_string(r.bytes)}, {"bs", std::to_string(o.io_size.n)}};
    job["copy"] = copy_section(r);
    job["usr_cpu"] = r.seconds > 0 ? 100.0 * r.usr_s / r.seconds : 0.0;
    job["sys_cpu"] = r.seconds > 0 ? 100.0 * r.sys_s / r.seconds : 0.0;
    job["ctx"] = r.ctx;
    job["majf"] = r.major_faults;
    job["minf"] = r.minor_faults;
    job["elapsed"] = r.seconds;
    job["host_buffer"] = {{"memory", std::string(name(o.copy.memory))},
                          {"bytes", r.bytes},
                          {"huge_page_bytes", r.huge_page_bytes},
                          {"thp_advice", std::string(name(o.copy.thp))}};
    root["jobs"].push_back(std::move(job));
    ojson rep;
    rep["repeat"] = r.repeat;
    rep["seconds"] = r.seconds;
    rep["bw_bytes"] = r.seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(r.bytes) / r.seconds) : 0;
    rep["minor_faults"] = r.minor_faults;
    rep["bytes_per_minor_fault"] = r.minor_faults > 0 ? ojson(static_cast<double>(r.bytes) / r.minor_faults) : ojson(nullptr);
    rep["huge_page_bytes"] = r.huge_page_bytes;
    if (o.copy.kind == CopyKind::cpu_pass && o.copy.pass == CpuPass::crc32) rep["crc32"] = fmt::format("{:08x}", r.crc32);
    repeats.push_back(std::move(rep));
  }
  ojson iw;
  iw["mode"] = "copy";
  iw["copy"] = std::string(name(o.copy.kind));
  iw["direction"] = direction(o.copy.kind);
  iw["pass"] = o.copy.kind == CopyKind::cpu_pass ? ojson(std::string(name(o.copy.pass))) : ojson(nullptr);
  iw["host_memory"] = std::string(name(o.copy.memory));
  iw["thp_advice"] = std::string(name(o.copy.thp));
  iw["thp_advice_applied"] = info.advice_applied;
  iw["thp_enabled"] = info.thp_enabled;
  iw["size"] = to_string(*o.size);
  iw["chunk"] = to_string(o.io_size);
  iw["gpu"] = o.copy.kind == CopyKind::cpu_pass ? ojson(nullptr) : ojson(o.gpu);
  iw["gpu_name"] = info.gpu_name;
  iw["cuda_library"] = info.cuda_library;
  iw["repeats"] = std::move(repeats);
  root["iowall"] = std::move(iw);
  return root;
}

std::string copy_summary(const CopyRunInfo& info, const CopyRepeat& r) {
  const MeasureOptions& o = info.options;
  std::string what = std::string(name(o.copy.kind));
  if (o.copy.kind == CopyKind::cpu_pass) what += "." + std::string(name(o.copy.pass));
  std::transform(what.begin(), what.end(), what.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  const double gib_s = r.seconds > 0 ? static_cast<double>(r.bytes) / r.seconds / (1024.0 * 1024.0 * 1024.0) : 0.0;
  std::string s = fmt::format(
      "Copy: {} HostMemory: {} THP: {} ({} MiB in huge pages) Size: {}(KiB) Chunk: {}(KiB) Throughput: {:.6f} GiB/sec, "
      "Avg_Latency: {:.6f} usecs chunks: {} minor_faults: {} total_time {:.6f} secs",
      what, name(o.copy.memory), name(o.copy.thp), r.huge_page_bytes >> 20, r.bytes / 1024, o.io_size.n / 1024, gib_s,
      r.lat_ns.mean() / 1000.0, r.chunks, r.minor_faults, r.seconds);
  if (o.repeat > 1) s += fmt::format(" repeat {}/{}", r.repeat, o.repeat);
  return s;
}

}  // namespace iowall::measure
