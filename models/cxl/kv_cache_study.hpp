// The KV-cache offload study behind `iowall cxl kvcache` (cxl_kvcache): both tiers over
// a sweep of block sizes at one queue depth, plus each tier's idle access latency, and
// what follows from them: each tier's smallest access, the smallest block reaching 90%
// of its best bandwidth, and the block size from which NVMe matches the CXL tier. The
// NVMe tier is a scenario, run by the runner the caller passes in.
#pragma once
#include <optional>
#include <vector>

#include "models/cxl/kv_cache_tiers.hpp"
#include "sim/config/study.hpp"

namespace iowall::cxl {

struct KvCacheStudy {
  struct Config {
    TierSetup setup;
    std::string topology;       // CXL tier from this file; empty: generated from setup
    std::vector<Bytes> blocks;  // the sweep
    i64 qd = 4;
    i64 blocks_per_requester = 0;  // 0: enough for steady state at each size
    KvCacheLoad load;          // interleave, shared and write fractions
    bool nvme = true;
  };
  struct Point {
    Bytes block;
    i64 blocks_per_requester = 0;
    TierPoint cxl;
    std::optional<TierPoint> nvme;
  };
  struct Result final : StudyResult {
    Config config;
    std::uint64_t seed = 1;
    std::string cxl_topology;        // its name
    std::vector<Point> points;
    TierPoint idle_cxl;              // one requester, one 64 B line at a time
    std::optional<TierPoint> idle_shared;  // the same line cached by another requester
    std::optional<TierPoint> idle_nvme;    // one requester, one LBA at a time
    Json to_json() const override;
    std::string to_text() const override;
    std::string result_kind() const override { return "cxl_kvcache"; }
  };
  static Config read_config(const Params& p);
  static Result run(const Config& c, const StudyEnv& env);
};

// A table a person reads in ten seconds, from the result document.
std::string study_text(const Json& result);

}  // namespace iowall::cxl
