// The two tiers of a KV-cache offload study, each simulated by discrete events on a
// topology built from the same registered models a topology file uses:
//  - CXL: requesters (cxl_host) -> a cxl_switch -> cxl_type3 devices over cxl links,
//    or one requester attached directly;
//  - NVMe: GPUs and NVMe SSDs under a PCIe switch, read by the gpu_direct path (the
//    NVMe queue, controller and NAND models of `iowall run`).
#pragma once
#include <string>

#include "models/cxl/kv_cache_load.hpp"
#include "sim/config/study.hpp"
#include "sim/core/params.hpp"

namespace iowall::cxl {

struct TierSetup {
  i64 requesters = 2;
  i64 cxl_devices = 1;
  int gen = 5, lanes = 8, flit = 68;
  bool direct = false;  // one requester on one device, no switch
  bool gpu_requesters = false;  // cxl_host preset "gpu" (many loads in flight)
  std::string device_preset = "cz120";
  i64 ssds = 4;
  std::string ssd_preset = "micron_9550";
};

// What one tier did at one block size.
struct TierPoint {
  std::string tier;
  Bytes block, access;  // the block asked for; what one access moves (at least 64 B / one LBA)
  double useful_GBps = 0, moved_GBps = 0;
  double latency_mean_us = 0, latency_p50_us = 0, latency_p99_us = 0;
  std::vector<double> per_requester_GBps;
  std::string limited_by;
  double limited_utilization = 0;
  Time local_dram;  // the first requester's own DRAM latency (CXL tier), for comparison
  Json idle_parts;  // CXL tier: the fixed latencies of one load by the first requester (ns)
  Json to_json() const;
};

// The CXL topology the options describe (also what `--topology` files look like).
Json cxl_topology(const TierSetup& s);
// Simulates the load on the CXL topology `doc` (`file` names it in errors), run by its
// first `requesters` cxl_host devices (0: all of them); `runner` says what limited it.
TierPoint run_cxl_tier(const ScenarioRunner& runner, const Json& doc, const std::string& file, const KvCacheLoad& load,
                       std::uint64_t seed, std::size_t requesters = 0);
// Simulates the same load read by GPUs from NVMe SSDs (gpu_direct, random reads): a
// scenario that `runner` runs.
TierPoint run_nvme_tier(const ScenarioRunner& runner, const TierSetup& s, const KvCacheLoad& load, std::uint64_t seed);
// The logical block size of the SSD preset: NVMe's smallest access.
Bytes nvme_lba_size(const TierSetup& s);

}  // namespace iowall::cxl
