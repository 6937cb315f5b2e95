// The KV-cache offload study behind `iowall cxl kvcache`: both tiers over a sweep of
// block sizes at one queue depth, plus each tier's idle access latency, and what
// follows from them: each tier's smallest access, the smallest block reaching 90% of
// its best bandwidth, and the block size from which NVMe matches the CXL tier.
#pragma once
#include <vector>

#include "models/cxl/kv_cache_tiers.hpp"

namespace iowall::cxl {

struct StudyOptions {
  TierSetup setup;
  Json cxl_doc;              // the CXL topology (generated from setup, or a file)
  std::string cxl_file;      // names it in errors
  std::vector<Bytes> blocks;  // the sweep
  i64 qd = 4;
  i64 blocks_per_requester = 0;  // 0: enough for steady state at each size
  KvCacheLoad load;          // interleave, shared and write fractions
  bool nvme = true;
  std::uint64_t seed = 1;
};

// The result document (deterministic: the same options give the same bytes).
Json run_study(const StudyOptions& o);
// A table a person reads in ten seconds.
std::string study_text(const Json& result);

}  // namespace iowall::cxl
