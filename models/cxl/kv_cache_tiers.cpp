#include "models/cxl/kv_cache_tiers.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/config/registry.hpp"
#include "sim/config/scenario.hpp"
#include "sim/config/topology.hpp"

namespace iowall::cxl {
namespace {

double rounded(double v, int digits) {
  const double f = std::pow(10.0, digits);
  return std::round(v * f) / f;
}

Json cxl_link(const TierSetup& s) { return {{"cxl", {{"gen", s.gen}, {"lanes", s.lanes}, {"flit", s.flit}}}}; }

Json link(const std::string& a, const std::string& b, Json protocol) {
  protocol["a"] = a;
  protocol["b"] = b;
  return protocol;
}

Json pcie(int lanes) { return {{"pcie", {{"gen", 5}, {"lanes", lanes}}}}; }

// The fixed latencies a load from `host` to `device` crosses, out and back: what is
// left of a measured load is serialization and queueing.
Json load_parts(const Topology& t, const CxlHost& host, const CxlType3& device) {
  Time links, switches;
  for (const Route* r : {&t.route(host, device), &t.route(device, host)}) {
    for (const Hop& h : r->hops) links += h.latency;
    for (std::size_t i = 1; i + 1 < r->devices.size(); ++i) switches += t.find(r->devices[i])->forwarding_latency();
  }
  return {{"host_fabric_ns", host.fabric_latency.ns()},
          {"links_ns", (links - switches).ns()},
          {"switches_ns", switches.ns()},
          {"device_ns", device.idle_latency().ns()}};
}

}  // namespace

Json TierPoint::to_json() const {
  return {{"tier", tier},
          {"block", to_string(block)},
          {"access", to_string(access)},
          {"useful_GBps", rounded(useful_GBps, 4)},
          {"moved_GBps", rounded(moved_GBps, 4)},
          {"latency_mean_us", rounded(latency_mean_us, 4)},
          {"latency_p50_us", rounded(latency_p50_us, 4)},
          {"latency_p99_us", rounded(latency_p99_us, 4)},
          {"per_requester_GBps", per_requester_GBps},
          {"limited_by", limited_by},
          {"limited_utilization", rounded(limited_utilization, 4)}};
}

Json cxl_topology(const TierSetup& s) {
  Json devices = Json::array(), links = Json::array();
  const i64 hosts = s.direct ? 1 : s.requesters, memories = s.direct ? 1 : s.cxl_devices;
  for (i64 h = 0; h < hosts; ++h) {
    devices.push_back({{"id", fmt::format("host{}", h)}, {"model", "cxl_host"}});
    if (s.gpu_requesters) devices.back()["preset"] = "gpu";
  }
  for (i64 d = 0; d < memories; ++d)
    devices.push_back({{"id", fmt::format("cxlmem{}", d)}, {"model", "cxl_type3"}, {"preset", s.device_preset}});
  if (s.direct) {
    links.push_back(link("host0.cxl", "cxlmem0.up", cxl_link(s)));
  } else {
    devices.push_back({{"id", "cxlsw0"}, {"model", "cxl_switch"}, {"ports", hosts + memories}});
    for (i64 h = 0; h < hosts; ++h)
      links.push_back(link(fmt::format("host{}.cxl", h), fmt::format("cxlsw0.p{}", h), cxl_link(s)));
    for (i64 d = 0; d < memories; ++d)
      links.push_back(link(fmt::format("cxlsw0.p{}", hosts + d), fmt::format("cxlmem{}.up", d), cxl_link(s)));
  }
  return {{"name", s.direct ? "cxl-direct" : "cxl-pool"},
          {"description", fmt::format("{} requesters sharing {} CXL memory devices", hosts, memories)},
          {"devices", devices},
          {"links", links}};
}

TierPoint run_cxl_tier(const ScenarioRunner& runner, const Json& doc, const std::string& file, const KvCacheLoad& load,
                       std::uint64_t seed, std::size_t requesters) {
  SimContext ctx(seed);
  Topology topology(ctx, doc, file);
  CxlFabric fabric(topology, doc, file);
  std::vector<CxlHost*> hosts;
  std::vector<CxlType3*> memories;
  for (Device* d : topology.devices_of("cxl_host")) hosts.push_back(static_cast<CxlHost*>(d));
  for (Device* d : topology.devices_of("cxl_type3")) memories.push_back(static_cast<CxlType3*>(d));
  if (hosts.empty() || memories.empty())
    throw InputError(file, "/devices", "a CXL topology needs at least one cxl_host and one cxl_type3");
  if (requesters > 0 && requesters < hosts.size()) hosts.resize(requesters);
  KvCacheRun run(fabric, hosts, memories, load, seed);
  const LoadResult r = run.run();
  TierPoint p;
  p.tier = "cxl";
  p.local_dram = hosts.front()->local_dram_latency;
  p.idle_parts = load_parts(topology, *hosts.front(), *memories.front());
  p.block = load.block;
  p.access = std::max(load.block, kLine);
  p.useful_GBps = gb_per_s(r.useful, r.elapsed);
  p.moved_GBps = gb_per_s(r.moved, r.elapsed);
  p.latency_mean_us = r.block_latency_ns.mean() / 1e3;
  p.latency_p50_us = static_cast<double>(r.block_latency_ns.percentile(50)) / 1e3;
  p.latency_p99_us = static_cast<double>(r.block_latency_ns.percentile(99)) / 1e3;
  for (const RequesterResult& q : r.requesters) p.per_requester_GBps.push_back(rounded(gb_per_s(q.useful, q.last_done), 4));
  if (const Json lim = runner.limiting_resource(ctx.stats(), r.elapsed); !lim.is_null()) {
    p.limited_by = lim["resource"];
    p.limited_utilization = lim["utilization"];
  }
  return p;
}

Bytes nvme_lba_size(const TierSetup& s) {
  const ModelEntry* e = ModelRegistry::instance().find("device", "nvme_ssd");
  Bytes lba(4096);
  const auto preset = e->presets.find(s.ssd_preset);
  if (preset != e->presets.end() && preset->second.values.contains("lba_size"))
    parse_bytes(preset->second.values["lba_size"].get<std::string>(), lba);
  return lba;
}

TierPoint run_nvme_tier(const ScenarioRunner& runner, const TierSetup& s, const KvCacheLoad& load, std::uint64_t seed) {
  Json devices = Json::array(), links = Json::array();
  devices.push_back({{"id", "cpu0"}, {"model", "cpu_socket"}});
  devices.push_back({{"id", "dram0"}, {"model", "dram"}});
  devices.push_back({{"id", "rc0"}, {"model", "root_complex"}, {"root_ports", 1}, {"p2p_bandwidth", "128 GB/s"}});
  // The study's switch has the lanes its links need (an x16 upstream, x16 per GPU, x4 per
  // drive): past a PEX89144's 144 lanes it stands for a tree of switches.
  devices.push_back({{"id", "sw0"}, {"model", "pcie_switch"}, {"preset", "pex89000"}, {"downstream_ports", s.requesters + s.ssds},
                     {"lanes", std::max<i64>(144, 16 * (1 + s.requesters) + 4 * s.ssds)}});
  links.push_back(link("cpu0.fabric", "rc0.cpu", {{"fabric", {{"bandwidth", "200 GB/s"}, {"latency", "40 ns"}}}}));
  links.push_back(link("rc0.mem", "dram0.mc", {{"fabric", {{"bandwidth", "307 GB/s"}, {"latency", "80 ns"}}}}));
  links.push_back(link("rc0.rp0", "sw0.up", pcie(16)));
  for (i64 g = 0; g < s.requesters; ++g) {
    devices.push_back({{"id", fmt::format("gpu{}", g)}, {"model", "gpu"}, {"preset", "h100_sxm"}});
    links.push_back(link(fmt::format("sw0.dn{}", g), fmt::format("gpu{}.up", g), pcie(16)));
  }
  for (i64 d = 0; d < s.ssds; ++d) {
    devices.push_back({{"id", fmt::format("nvme{}", d)}, {"model", "nvme_ssd"}, {"preset", s.ssd_preset}});
    links.push_back(link(fmt::format("sw0.dn{}", s.requesters + d), fmt::format("nvme{}.up", d), pcie(4)));
  }
  // Reads below one logical block still move a whole block.
  const Bytes io = std::max(load.block, nvme_lba_size(s));
  // cuFile's reads are synchronous: a depth of N per requester is N threads, each at QD1
  // (one thread at depth N would serialize N control-plane costs).
  const Json workload = {{"kind", "random_read"}, {"io_size", to_string(io)}, {"threads", load.qd}, {"qd", 1},
                         {"size", to_string(io * load.blocks)}, {"storage", "all"}};
  const Json doc = {{"name", "kv-cache-nvme"},
                    {"topology", {{"name", "kv-cache-nvme"}, {"devices", devices}, {"links", links}}},
                    {"workload", workload},
                    {"paths", {"gpu_direct"}},
                    {"seed", seed}};
  const Json m = runner.run(scenario_from_json(doc, "iowall cxl kvcache (nvme tier)", ""))["metrics"]["gpu_direct"];
  TierPoint p;
  p.tier = "nvme";
  p.block = load.block;
  p.access = io;
  const double useful = ratio(load.block, io);
  p.moved_GBps = m["throughput_GBps"];
  p.useful_GBps = p.moved_GBps * useful;
  p.latency_mean_us = m["latency_mean_us"];
  p.latency_p50_us = m["latency_p50_us"];
  p.latency_p99_us = m["latency_p99_us"];
  for (const Json& j : m["jobs"]) p.per_requester_GBps.push_back(rounded(j["throughput_GBps"].get<double>() * useful, 4));
  if (!m["limited_by"].is_null()) {
    p.limited_by = m["limited_by"]["resource"];
    p.limited_utilization = m["limited_by"]["utilization"];
  }
  return p;
}

}  // namespace iowall::cxl
