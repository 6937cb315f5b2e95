// Builds a CXL topology from tier options and runs single loads or whole loads on it.
#pragma once
#include "models/cxl/kv_cache_tiers.hpp"
#include "sim/config/topology.hpp"

namespace iowall::testing {

struct CxlBench {
  explicit CxlBench(const cxl::TierSetup& s)
      : doc(cxl::cxl_topology(s)), topology(ctx, doc, "test"), fabric(topology, doc, "test") {}
  template <typename T>
  T& device(const std::string& id) {
    return static_cast<T&>(*topology.find(id));
  }
  // Latency of one 64 B load from `host` on an idle fabric (`holder` caches the line).
  Time load_latency(const std::string& host, const std::string& holder = "") {
    const Time start = ctx.now();
    Time end;
    Time* out = &end;
    SimContext* c = &ctx;
    fabric.load(device<CxlHost>(host), device<CxlType3>("cxlmem0"),
                holder.empty() ? nullptr : &device<CxlHost>(holder), [out, c] { *out = c->now(); });
    ctx.run();
    return end - start;
  }
  SimContext ctx{1};
  Json doc;
  Topology topology;
  cxl::CxlFabric fabric;
};

inline cxl::KvCacheLoad kv_load(Bytes block, i64 qd, i64 blocks) {
  cxl::KvCacheLoad l;
  l.block = block;
  l.qd = qd;
  l.blocks = blocks;
  return l;
}

}  // namespace iowall::testing
