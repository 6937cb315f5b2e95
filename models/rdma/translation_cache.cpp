#include "models/rdma/translation_cache.hpp"
#include "sim/core/interrupt.hpp"

namespace iowall::rdma {

TranslationCacheConfig TranslationCacheConfig::read(const Params& p) {
  TranslationCacheConfig c;
  c.entries = p.get_int("entries", 128, 1, i64{1} << 30, "translation lines the HCA caches",
                        "seed 001: 64-128 entries per port (vendors publish no size)");
  c.mtt_per_line = p.get_int("mtt_per_line", 8, 1, 64, "MTT entries brought by one 64 B read",
                             "Linux mlx5 driver: an MTT entry is one 8 B big-endian address");
  c.miss_penalty = p.get_time("miss_penalty", "1 us", "PCIe read round trip to fetch one translation line",
                              "order of a 64 B DMA read to host DRAM (pcie-bench, SIGCOMM'18); seed 001 says 2-5 us");
  return c;
}

bool TranslationCache::access(std::uint64_t key) {
  if (const auto it = where_.find(key); it != where_.end()) {
    order_.splice(order_.begin(), order_, it->second);
    ++hits_;
    return true;
  }
  ++misses_;
  if (static_cast<i64>(order_.size()) >= capacity_) {
    where_.erase(order_.back());
    order_.pop_back();
  }
  order_.push_front(key);
  where_[key] = order_.begin();
  return false;
}

MttResult simulate_mtt(const TranslationCacheConfig& cache, const MttWorkload& w) {
  const i64 pages = ceil_div(w.buffer, w.page_size);
  const i64 mtt_lines = (pages + cache.mtt_per_line - 1) / cache.mtt_per_line;
  TranslationCache c(cache.entries);
  // Key: worker in the high bits; line 0 is the region's MPT entry, then its MTT lines.
  Rng rng(w.seed, "mtt");
  auto round = [&] {
    for (i64 i = 0; i < w.workers; ++i) {
      throw_if_interrupted();
      const i64 wk = w.random_order ? static_cast<i64>(rng.below(static_cast<std::uint64_t>(w.workers))) : i;
      for (i64 line = 0; line <= mtt_lines; ++line) c.access((static_cast<std::uint64_t>(wk) << 32) | line);
    }
  };
  round();  // warm-up: compulsory misses
  const std::uint64_t h0 = c.hits(), m0 = c.misses();
  for (i64 r = 1; r < w.rounds; ++r) round();
  MttResult res;
  res.lines_per_io = mtt_lines + 1;
  res.live_lines = res.lines_per_io * w.workers;
  const double counted = static_cast<double>(w.rounds - 1);
  const double hits = static_cast<double>(c.hits() - h0), misses = static_cast<double>(c.misses() - m0);
  res.hit_rate = hits + misses > 0 ? hits / (hits + misses) : 1.0;
  res.misses_per_round = counted > 0 ? misses / counted : 0;
  res.overhead_per_round = scale(cache.miss_penalty, res.misses_per_round);
  return res;
}

}  // namespace iowall::rdma
