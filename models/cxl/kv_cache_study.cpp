#include "models/cxl/kv_cache_study.hpp"

#include <fmt/format.h>

#include "sim/report/result_file.hpp"

namespace iowall::cxl {
namespace {

// Enough blocks that each requester moves 32 MiB or runs 512 blocks, at least 4 per slot.
i64 auto_blocks(Bytes block, i64 qd) {
  const i64 by_bytes = std::max<i64>(1, (i64{32} << 20) / std::max<i64>(block.n, kLineBytes));
  return std::max(4 * qd, std::min<i64>(512, by_bytes));
}

KvCacheLoad load_for(const StudyOptions& o, Bytes block, i64 qd) {
  KvCacheLoad l = o.load;
  l.block = block;
  l.qd = qd;
  l.blocks = o.blocks_per_requester > 0 ? o.blocks_per_requester : auto_blocks(block, qd);
  return l;
}

// The smallest block of the sweep reaching 90% of the tier's best useful bandwidth.
Json min_efficient(const Json& points, const char* tier) {
  double best = 0;
  for (const Json& p : points) best = std::max(best, p[tier]["useful_GBps"].get<double>());
  for (const Json& p : points)
    if (p[tier]["useful_GBps"].get<double>() >= 0.9 * best) return p["block"];
  return nullptr;
}

Json idle_latency(const StudyOptions& o) {
  TierSetup one = o.setup;
  one.requesters = 1;
  StudyOptions single = o;
  single.blocks_per_requester = 64;
  single.load.shared_fraction = 0;
  single.load.write_fraction = 0;
  const KvCacheLoad line = load_for(single, Bytes(kLineBytes), 1);
  const TierPoint cxl = run_cxl_tier(o.cxl_doc, o.cxl_file, line, o.seed, 1);
  Json j = {{"cxl_load_ns", cxl.latency_mean_us * 1e3},
            {"cxl_load_p99_ns", cxl.latency_p99_us * 1e3},
            {"local_dram_ns", cxl.local_dram.ns()},
            {"cxl_over_local_dram", cxl.latency_mean_us * 1e3 / cxl.local_dram.ns()},
            {"cxl_load_parts", cxl.idle_parts}};
  double fixed = 0;
  for (const auto& [part, ns] : cxl.idle_parts.items()) fixed += ns.get<double>();
  j["cxl_load_parts"]["flits_and_media_transfer_ns"] = cxl.latency_mean_us * 1e3 - fixed;
  KvCacheLoad shared = line;
  shared.shared_fraction = 1;
  // The same load of a line the next requester caches: the back-invalidate round trip.
  const TierPoint snooped = run_cxl_tier(o.cxl_doc, o.cxl_file, shared, o.seed, 2);
  if (snooped.per_requester_GBps.size() == 2) j["cxl_load_shared_ns"] = snooped.latency_mean_us * 1e3;
  if (o.nvme) {
    const TierPoint nvme = run_nvme_tier(one, load_for(single, nvme_lba_size(one), 1), o.seed);
    j["nvme_read_us"] = nvme.latency_mean_us;
    j["nvme_read_p99_us"] = nvme.latency_p99_us;
    j["nvme_over_cxl"] = nvme.latency_mean_us * 1e3 / (cxl.latency_mean_us * 1e3);
  }
  return j;
}

}  // namespace

Json run_study(const StudyOptions& o) {
  Json points = Json::array();
  Json catch_up = nullptr;
  for (const Bytes b : o.blocks) {
    const KvCacheLoad load = load_for(o, b, o.qd);
    Json p = {{"block", to_string(b)}, {"blocks_per_requester", load.blocks},
              {"cxl", run_cxl_tier(o.cxl_doc, o.cxl_file, load, o.seed).to_json()}};
    if (o.nvme) {
      p["nvme"] = run_nvme_tier(o.setup, load, o.seed).to_json();
      if (catch_up.is_null() && p["nvme"]["useful_GBps"].get<double>() >= p["cxl"]["useful_GBps"].get<double>())
        catch_up = p["block"];
    }
    points.push_back(p);
  }
  Json summary = {{"cxl_min_access", to_string(Bytes(kLineBytes))},
                  {"cxl_min_efficient_block", min_efficient(points, "cxl")},
                  {"idle_latency", idle_latency(o)}};
  if (o.nvme) {
    summary["nvme_min_access"] = to_string(nvme_lba_size(o.setup));
    summary["nvme_min_efficient_block"] = min_efficient(points, "nvme");
    summary["nvme_catches_up_at"] = catch_up;
  }
  const TierSetup& s = o.setup;
  return {{"iowall_result", result_marker("cxl_kvcache")},
          {"setup",
           {{"requesters", s.requesters},
            {"gpu_requesters", s.gpu_requesters},
            {"cxl_topology", o.cxl_doc.value("name", "")},
            {"cxl_link", fmt::format("Gen{} x{} {} B flits", s.gen, s.lanes, s.flit)},
            {"cxl_devices", s.cxl_devices},
            {"device_preset", s.device_preset},
            {"ssds", o.nvme ? s.ssds : 0},
            {"ssd_preset", s.ssd_preset},
            {"qd", o.qd},
            {"interleave", to_string(o.load.interleave)},
            {"shared_fraction", o.load.shared_fraction},
            {"write_fraction", o.load.write_fraction},
            {"seed", o.seed}}},
          {"points", points},
          {"summary", summary}};
}

std::string study_text(const Json& r) {
  const Json& s = r["setup"];
  const bool nvme = r["points"].empty() || r["points"][0].contains("nvme");
  std::string out = fmt::format("KV-cache offload: {} requesters, QD {} blocks each; CXL {} ({}, {} x {}){}\n",
                                s["requesters"].get<i64>(), s["qd"].get<i64>(), s["cxl_topology"].get<std::string>(),
                                s["cxl_link"].get<std::string>(), s["cxl_devices"].get<i64>(),
                                s["device_preset"].get<std::string>(),
                                nvme ? fmt::format(" vs {} x {} NVMe (gpu_direct)", s["ssds"].get<i64>(),
                                                   s["ssd_preset"].get<std::string>())
                                     : "");
  out += fmt::format("{:>9}  {:>9} {:>10} {:>10}", "block", "cxl GB/s", "mean us", "p99 us");
  out += nvme ? fmt::format("  {:>9} {:>10} {:>10}  busiest (cxl | nvme)\n", "nvme GB/s", "mean us", "p99 us")
              : "  busiest\n";
  // One tier's columns: useful GB/s, mean and p99 latency.
  auto columns = [](const Json& t, int digits) {
    return fmt::format("{:>9.2f} {:>10.{}f} {:>10.{}f}", t["useful_GBps"].get<double>(),
                       t["latency_mean_us"].get<double>(), digits, t["latency_p99_us"].get<double>(), digits);
  };
  auto busiest = [](const Json& t) {
    return fmt::format("{} {:.0f}%", t["limited_by"].get<std::string>(), 100 * t["limited_utilization"].get<double>());
  };
  for (const Json& p : r["points"]) {
    out += fmt::format("{:>9}  {}", p["block"].get<std::string>(), columns(p["cxl"], 3));
    out += nvme ? fmt::format("  {}  {} | {}\n", columns(p["nvme"], 1), busiest(p["cxl"]), busiest(p["nvme"]))
                : fmt::format("  {}\n", busiest(p["cxl"]));
  }
  const Json& sum = r["summary"];
  const Json& idle = sum["idle_latency"];
  const Json& parts = idle["cxl_load_parts"];
  out += fmt::format("idle 64 B CXL load: {:.1f} ns (host {:.0f} + links {:.0f} + switches {:.0f} + device {:.0f} + flits "
                     "and transfers {:.0f}), {:.1f}x local DRAM",
                     idle["cxl_load_ns"].get<double>(), parts["host_fabric_ns"].get<double>(),
                     parts["links_ns"].get<double>(), parts["switches_ns"].get<double>(),
                     parts["device_ns"].get<double>(), parts["flits_and_media_transfer_ns"].get<double>(),
                     idle["cxl_over_local_dram"].get<double>());
  if (idle.contains("cxl_load_shared_ns"))
    out += fmt::format("; {:.1f} ns when another requester caches the line", idle["cxl_load_shared_ns"].get<double>());
  if (nvme)
    out += fmt::format("\nidle {} NVMe read: {:.1f} us ({:.0f}x the CXL load)", sum["nvme_min_access"].get<std::string>(),
                       idle["nvme_read_us"].get<double>(), idle["nvme_over_cxl"].get<double>());
  auto text = [](const Json& j) { return j.is_null() ? std::string("not in the sweep") : j.get<std::string>(); };
  out += fmt::format("\nsmallest access: CXL {}{}; 90% of best bandwidth from: CXL {}{}\n",
                     sum["cxl_min_access"].get<std::string>(),
                     nvme ? ", NVMe " + sum["nvme_min_access"].get<std::string>() : "",
                     text(sum["cxl_min_efficient_block"]), nvme ? ", NVMe " + text(sum["nvme_min_efficient_block"]) : "");
  if (nvme) out += fmt::format("NVMe matches the CXL tier's bandwidth from block size: {}\n", text(sum["nvme_catches_up_at"]));
  return out;
}

}  // namespace iowall::cxl
