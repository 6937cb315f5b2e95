#include "models/cxl/kv_cache_load.hpp"

#include <fmt/format.h>

namespace iowall::cxl {

KvCacheRun::KvCacheRun(CxlFabric& fabric, std::vector<CxlHost*> hosts, std::vector<CxlType3*> devices,
                       const KvCacheLoad& load, std::uint64_t seed)
    : fabric_(fabric), devices_(std::move(devices)), load_(load), rng_(seed, "kv_cache") {
  for (CxlHost* h : hosts) {
    Requester q;
    q.host = h;
    requesters_.push_back(q);
  }
}

LoadResult KvCacheRun::run() {
  for (std::uint32_t r = 0; r < requesters_.size(); ++r)
    for (i64 i = 0; i < load_.qd && requesters_[r].started < load_.blocks; ++i) start_block(r);
  SimContext& ctx = requesters_.front().host->ctx();
  ctx.run();
  if (blocks_.live() != 0) throw RunError(fmt::format("the KV-cache load stalled with {} blocks in flight", blocks_.live()));
  for (const Requester& q : requesters_) {
    result_.requesters.push_back({q.host->name(), q.useful, q.last_done});
    result_.elapsed = std::max(result_.elapsed, q.last_done);
    result_.useful += q.useful;
  }
  return result_;
}

void KvCacheRun::start_block(std::uint32_t r) {
  Requester& q = requesters_[r];
  ++q.started;
  const i64 lines = ceil_div(load_.block, kLine);
  // A random block of a large region: decides which device each line falls on.
  const i64 first_line = static_cast<i64>(rng_.below(1u << 24)) * lines;
  const bool write = load_.write_fraction > 0 && rng_.uniform() < load_.write_fraction;
  q.active.push_back(blocks_.acquire({r, lines, 0, 0, first_line, write, q.host->now()}));
  pump(r);
}

void KvCacheRun::pump(std::uint32_t r) {
  Requester& q = requesters_[r];
  while (!q.active.empty() && q.outstanding < q.host->max_outstanding) {
    const std::uint32_t b = q.active.front();
    Block& blk = blocks_[b];
    const i64 line = blk.first_line + blk.issued;
    if (++blk.issued == blk.lines) q.active.pop_front();
    ++q.outstanding;
    CxlType3& device = *devices_[static_cast<std::size_t>(kLine * line / load_.interleave) % devices_.size()];
    if (blk.write) {
      fabric_.store(*q.host, device, [this, b] { line_done(b); });
      continue;
    }
    CxlHost* holder = nullptr;
    if (requesters_.size() > 1 && load_.shared_fraction > 0 && rng_.uniform() < load_.shared_fraction)
      holder = requesters_[(r + 1) % requesters_.size()].host;
    fabric_.load(*q.host, device, holder, [this, b] { line_done(b); });
  }
}

void KvCacheRun::line_done(std::uint32_t b) {
  Block& blk = blocks_[b];
  const std::uint32_t r = blk.requester;
  Requester& q = requesters_[r];
  --q.outstanding;
  result_.moved += kLine;
  if (++blk.done == blk.lines) {
    const Time now = q.host->now();
    result_.block_latency_ns.add(static_cast<std::uint64_t>((now - blk.start).whole_ns()));
    q.useful += load_.block;
    q.last_done = now;
    blocks_.release(b);
    if (q.started < load_.blocks) start_block(r);
  }
  pump(r);
}

}  // namespace iowall::cxl
