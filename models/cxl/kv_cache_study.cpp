// Reads the KV-cache study's parameters, runs both tiers over the sweep and the idle
// probes, and writes the result document and its table.
#include "models/cxl/kv_cache_study.hpp"

#include <sstream>

#include <fmt/format.h>

#include "sim/config/json_file.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/quote.hpp"

namespace iowall::cxl {
namespace {

// Enough blocks that each requester moves 32 MiB or runs 512 blocks, at least 4 per slot.
i64 auto_blocks(Bytes block, i64 qd) {
  const i64 by_bytes = std::max<i64>(1, Bytes(i64{32} << 20) / std::max(block, kLine));
  return std::max(4 * qd, std::min<i64>(512, by_bytes));
}

KvCacheLoad load_for(const KvCacheStudy::Config& o, Bytes block, i64 qd) {
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

}  // namespace

KvCacheStudy::Config KvCacheStudy::read_config(const Params& p) {
  Config c;
  TierSetup& s = c.setup;
  constexpr i64 kWide = i64{1} << 31;  // gen, lanes and flit are checked together below
  s.requesters = p.get_int("requesters", 2, 1, 64, "hosts/GPUs fetching blocks (each one CXL root port, or one GPU)",
                           "assumption: two inference servers sharing a pool");
  s.cxl_devices = p.get_int("cxl_devices", 1, 1, 64, "Type-3 devices behind the switch", "assumption");
  s.gen = static_cast<int>(p.get_int("gen", 5, -kWide, kWide, "CXL PHY generation: 5 or 6", "CXL 2.0/3.x"));
  s.lanes = static_cast<int>(p.get_int("lanes", 8, -kWide, kWide, "CXL link width: 1, 2, 4, 8 or 16",
                                       "x8: the width of CZ120-class E3.S modules"));
  s.flit = static_cast<int>(p.get_int("flit", 68, -kWide, kWide, "flit size: 68 (CXL 2.0) or 256 (CXL 3.x)",
                                      "CXL 2.0 specification"));
  LinkConfig link;
  link.gen = s.gen;
  link.lanes = s.lanes;
  link.flit = s.flit;
  if (const LinkProblem bad = check(link); !bad.key.empty()) p.fail(bad.key, bad.message);
  s.direct = p.get_choice("attach", "switch", {"switch", "direct"},
                          "switch (pooled) or direct (one requester, one device)", "assumption") == "direct";
  s.gpu_requesters = p.get_choice("requester", "cpu", {"cpu", "gpu"},
                                  "cpu (a root port, 512 loads in flight) or gpu (4096)", "cxl_host presets") == "gpu";
  s.device_preset = p.get_choice("device_preset", "cz120", {"cz120", "cmm_d"}, "cxl_type3 preset", "cxl_type3 presets");
  s.ssds = p.get_int("ssds", 4, 1, 64, "NVMe SSDs of the NVMe tier", "assumption: four drives per GPU server");
  s.ssd_preset = p.get_text("ssd_preset", "micron_9550", "nvme_ssd preset of the NVMe tier", "nvme_ssd presets");
  if (const ModelEntry* ssd = ModelRegistry::instance().find("device", "nvme_ssd");
      !p.describing() && ssd && !ssd->presets.count(s.ssd_preset)) {
    std::string known;
    for (const auto& [name, preset] : ssd->presets) known += (known.empty() ? "" : ", ") + name;
    p.fail("ssd_preset", fmt::format("\"{}\" is not an nvme_ssd preset (known: {})", quote_text(s.ssd_preset, 40), known));
  }
  const std::string sizes = p.get_text("sizes", "64 B,256 B,1 KiB,4 KiB,16 KiB,64 KiB,256 KiB,1 MiB,4 MiB",
                                       "comma-separated block sizes to sweep",
                                       "KV-cache blocks: a few tokens' keys and values up to whole sequences");
  std::stringstream ss(sizes);
  for (std::string item; std::getline(ss, item, ',');) {
    Bytes b;
    if (const ParseResult r = parse_bytes(item, b); !r.ok) p.fail("sizes", r.error);
    if (!b.is_positive()) p.fail("sizes", "must be positive");
    c.blocks.push_back(b);
  }
  if (c.blocks.empty() && !p.describing()) p.fail("sizes", "no block size given (expected e.g. \"4 KiB,64 KiB\")");
  c.qd = p.get_int("qd", 4, 1, 1024, "blocks each requester keeps in flight", "assumption");
  c.blocks_per_requester = p.get_int("blocks", 0, 0, i64{1} << 20,
                                     "blocks per requester at each size (0: enough for steady state)", "assumption");
  c.load.interleave = p.get_bytes("interleave", "4 KiB", "interleave granularity across CXL devices",
                                  "host-managed interleave of a memory pool");
  c.load.shared_fraction = p.get_number("shared_fraction", 0.0, 0.0, 1.0,
                                        "fraction of lines another requester caches (back-invalidate snoop)", "assumption");
  c.load.write_fraction = p.get_number("write_fraction", 0.0, 0.0, 1.0,
                                       "fraction of blocks written back to the CXL tier instead of read", "assumption");
  c.topology = p.get_text("topology", "", "CXL tier from a topology file (cxl_host, cxl_switch, cxl_type3, cxl links); "
                          "empty: generated from the options", "the user's topology");
  c.nvme = p.get_choice("tiers", "both", {"both", "cxl"}, "both, or cxl alone", "assumption") == "both";
  if (s.direct) s.requesters = 1;
  return c;
}

KvCacheStudy::Result KvCacheStudy::run(const Config& c, const StudyEnv& env) {
  const ScenarioRunner& runner = env.scenarios();
  Json doc;
  std::string file;
  if (c.topology.empty()) {
    doc = cxl_topology(c.setup);
    file = "iowall cxl kvcache";
  } else {
    const JsonDocument d = load_json(c.topology);
    doc = d.json;
    file = d.name;
  }
  Result r;
  r.config = c;
  r.seed = env.seed;
  r.cxl_topology = doc.value("name", "");
  for (const Bytes b : c.blocks) {
    const KvCacheLoad load = load_for(c, b, c.qd);
    Point p{b, load.blocks, run_cxl_tier(runner, doc, file, load, env.seed), std::nullopt};
    if (c.nvme) p.nvme = run_nvme_tier(runner, c.setup, load, env.seed);
    r.points.push_back(std::move(p));
  }
  // Idle latency: one requester, one access at a time.
  TierSetup one = c.setup;
  one.requesters = 1;
  Config single = c;
  single.blocks_per_requester = 64;
  single.load.shared_fraction = 0;
  single.load.write_fraction = 0;
  const KvCacheLoad line = load_for(single, kLine, 1);
  r.idle_cxl = run_cxl_tier(runner, doc, file, line, env.seed, 1);
  KvCacheLoad shared = line;
  shared.shared_fraction = 1;
  // The same load of a line the next requester caches: the back-invalidate round trip.
  const TierPoint snooped = run_cxl_tier(runner, doc, file, shared, env.seed, 2);
  if (snooped.per_requester_GBps.size() == 2) r.idle_shared = snooped;
  if (c.nvme) r.idle_nvme = run_nvme_tier(runner, one, load_for(single, nvme_lba_size(one), 1), env.seed);
  return r;
}

Json KvCacheStudy::Result::to_json() const {
  const Config& o = config;
  Json points_json = Json::array();
  Json catch_up = nullptr;
  for (const Point& pt : points) {
    Json p = {{"block", to_string(pt.block)}, {"blocks_per_requester", pt.blocks_per_requester}, {"cxl", pt.cxl.to_json()}};
    if (pt.nvme) {
      p["nvme"] = pt.nvme->to_json();
      if (catch_up.is_null() && p["nvme"]["useful_GBps"].get<double>() >= p["cxl"]["useful_GBps"].get<double>())
        catch_up = p["block"];
    }
    points_json.push_back(p);
  }
  const TierPoint& cxl = idle_cxl;
  Json idle = {{"cxl_load_ns", cxl.latency_mean_us * 1e3},
               {"cxl_load_p99_ns", cxl.latency_p99_us * 1e3},
               {"local_dram_ns", cxl.local_dram.ns()},
               {"cxl_over_local_dram", cxl.latency_mean_us * 1e3 / cxl.local_dram.ns()},
               {"cxl_load_parts", cxl.idle_parts}};
  double fixed = 0;
  for (const auto& [part, ns] : cxl.idle_parts.items()) fixed += ns.get<double>();
  idle["cxl_load_parts"]["flits_and_media_transfer_ns"] = cxl.latency_mean_us * 1e3 - fixed;
  if (idle_shared) idle["cxl_load_shared_ns"] = idle_shared->latency_mean_us * 1e3;
  if (idle_nvme) {
    idle["nvme_read_us"] = idle_nvme->latency_mean_us;
    idle["nvme_read_p99_us"] = idle_nvme->latency_p99_us;
    idle["nvme_over_cxl"] = idle_nvme->latency_mean_us * 1e3 / (cxl.latency_mean_us * 1e3);
  }
  Json summary = {{"cxl_min_access", to_string(kLine)},
                  {"cxl_min_efficient_block", min_efficient(points_json, "cxl")},
                  {"idle_latency", idle}};
  if (o.nvme) {
    summary["nvme_min_access"] = to_string(nvme_lba_size(o.setup));
    summary["nvme_min_efficient_block"] = min_efficient(points_json, "nvme");
    summary["nvme_catches_up_at"] = catch_up;
  }
  const TierSetup& s = o.setup;
  return {{"setup",
           {{"requesters", s.requesters},
            {"gpu_requesters", s.gpu_requesters},
            {"cxl_topology", cxl_topology},
            {"cxl_link", fmt::format("Gen{} x{} {} B flits", s.gen, s.lanes, s.flit)},
            {"cxl_devices", s.cxl_devices},
            {"device_preset", s.device_preset},
            {"ssds", o.nvme ? s.ssds : 0},
            {"ssd_preset", s.ssd_preset},
            {"qd", o.qd},
            {"interleave", to_string(o.load.interleave)},
            {"shared_fraction", o.load.shared_fraction},
            {"write_fraction", o.load.write_fraction},
            {"seed", seed}}},
          {"points", points_json},
          {"summary", summary}};
}

std::string KvCacheStudy::Result::to_text() const { return study_text(to_json()); }

IOWALL_REGISTER_STUDY(KvCacheStudy, "cxl_kvcache", "KV-cache blocks from a pooled CXL memory tier against NVMe SSDs");

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
