#include "discover/host_part.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "discover/parts.hpp"
#include "sim/core/units.hpp"

namespace iowall::discover {

using nlohmann::json;

Part host_part(const HostInfo& host) {
  Part p;
  const PartMatch cpu = match_cpu(host.model_name);
  const auto platform = platform_of(cpu.preset);
  const std::string dram_bw = platform ? platform->dram_bandwidth : "307 GB/s";
  for (std::size_t s = 0; s < host.sockets.size(); ++s) {
    const SocketInfo& info = host.sockets[s];
    const std::string cpu_id = fmt::format("cpu{}", s), dram_id = fmt::format("dram{}", s), rc_id = fmt::format("rc{}", s);
    json c = {{"id", cpu_id}, {"model", "cpu_socket"}};
    if (!cpu.preset.empty()) c["preset"] = cpu.preset;
    c["cores"] = std::clamp(info.cores, 1, 1024);
    p.sources.push_back(fmt::format("{}: {}{}", cpu_id, info.source,
                                    cpu.preset.empty() ? "" : fmt::format("; preset {} from {}", cpu.preset, cpu.source)));
    if (cpu.preset.empty()) {
      if (info.base_khz > 0) {
        c["frequency"] = to_string(Frequency(info.base_khz * 1000));
        p.sources.push_back(fmt::format("{}: frequency from /sys/devices/system/cpu/cpu*/cpufreq/base_frequency {} kHz",
                                        cpu_id, info.base_khz));
      }
      p.describe(c, fmt::format("{} has no cpu_socket preset: set memcpy_per_core (iowall calibrate fits it from "
                                "iowall measure runs){}",
                                host.model_name.empty() ? "the CPU" : "\"" + host.model_name + "\"",
                                info.base_khz > 0 ? "" : " and frequency"));
    }
    p.devices.push_back(c);
    json dram = {{"id", dram_id}, {"model", "dram"}, {"bandwidth", dram_bw}};
    if (info.memory_kib > 0) dram["capacity"] = to_string(Bytes(info.memory_kib * 1024));
    if (platform)
      p.sources.push_back(fmt::format("{}: bandwidth {}: {}", dram_id, dram_bw, platform->source));
    else
      p.describe(dram, "memory bandwidth is not in sysfs: the dram default (8 channels of DDR5-4800, 307 GB/s) stands "
                       "in; set bandwidth here and on the " + rc_id + ".mem link (channels x transfer rate x 8 B, or a "
                       "copy benchmark such as scripts/host-copy-bandwidth.py)");
    if (info.memory_kib == 0) p.describe(dram, "no memory size readable: set capacity");
    p.devices.push_back(dram);
    p.devices.push_back({{"id", rc_id}, {"model", "root_complex"}, {"root_ports", 1}});
    p.links.push_back({{"a", cpu_id + ".fabric"}, {"b", rc_id + ".cpu"},
                       {"fabric", {{"bandwidth", "200 GB/s"}, {"latency", "40 ns"}}}});
    p.links.push_back({{"a", rc_id + ".mem"}, {"b", dram_id + ".mc"},
                       {"fabric", {{"bandwidth", dram_bw}, {"latency", "80 ns"}}}});
  }
  p.sources.push_back("cpuN.fabric -- rcN.cpu (200 GB/s, 40 ns) and rcN.mem -- dramN.mc (80 ns): the on-die fabric "
                      "as every topology of the project has it (not in sysfs)");
  // Sockets are joined in pairs: the root_complex model has one peer port.
  for (std::size_t s = 0; s + 1 < host.sockets.size(); s += 2) {
    const std::string a = fmt::format("rc{}.peer", s), b = fmt::format("rc{}.peer", s + 1);
    p.links.push_back({{"a", a}, {"b", b},
                       {"fabric", {{"bandwidth", platform ? platform->peer_bandwidth : "62 GB/s"},
                                   {"latency", platform ? platform->peer_latency : "120 ns"}}}});
    if (platform)
      p.sources.push_back(fmt::format("{} -- {}: {}", a, b, platform->source));
    else
      p.notes.push_back(fmt::format("{} -- {}: the inter-socket link's bandwidth is not in sysfs: 62 GB/s (UPI of a "
                                    "Sapphire Rapids pair) stands in; set it from the platform",
                                    a, b));
  }
  if (host.sockets.size() > 2)
    p.notes.push_back(fmt::format("{} sockets: joined in pairs (the root_complex model has one peer port), so the "
                                  "pairs do not reach each other's memory",
                                  host.sockets.size()));
  return p;
}

}  // namespace iowall::discover
