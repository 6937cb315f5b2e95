// HCA translation cache: LRU hits while the live translations fit, a cliff after.
#include <catch2/catch.hpp>

#include "models/rdma/translation_cache.hpp"

using namespace iowall;
using namespace iowall::literals;

TEST_CASE("LRU cache keeps the most recent keys", "[rdma][mtt]") {
  rdma::TranslationCache c(2);
  CHECK_FALSE(c.access(1));
  CHECK_FALSE(c.access(2));
  CHECK(c.access(1));        // 1 is now most recent
  CHECK_FALSE(c.access(3));  // evicts 2
  CHECK(c.access(1));
  CHECK_FALSE(c.access(2));
  CHECK(c.hits() == 2);
  CHECK(c.misses() == 4);
}

TEST_CASE("translation cache thrashes once live lines exceed its size", "[rdma][mtt]") {
  rdma::TranslationCacheConfig cfg;
  cfg.entries = 128;
  cfg.mtt_per_line = 8;
  cfg.miss_penalty = 1_us;
  // 1 MiB of 4 KiB pages: 256 MTT entries = 32 lines, plus the MPT entry: 33 lines per worker.
  const auto fits = rdma::simulate_mtt(cfg, {3, 1_MiB, 4_KiB, 8});
  CHECK(fits.lines_per_io == 33);
  CHECK(fits.hit_rate == 1.0);
  CHECK(fits.overhead_per_round == Time(0));
  const auto spills = rdma::simulate_mtt(cfg, {4, 1_MiB, 4_KiB, 8});
  CHECK(spills.live_lines == 132);
  CHECK(spills.hit_rate == 0.0);  // cyclic access over more keys than LRU holds
  CHECK(spills.overhead_per_round == 132_us);
  // 64 KiB GPU pages: 3 lines per worker, so 42 workers fit and 43 do not.
  CHECK(rdma::simulate_mtt(cfg, {42, 1_MiB, 64_KiB, 8}).hit_rate == 1.0);
  CHECK(rdma::simulate_mtt(cfg, {43, 1_MiB, 64_KiB, 8}).hit_rate < 0.5);
}

TEST_CASE("random interleaving gives partial hit rates that fall as workers are added", "[rdma][mtt]") {
  rdma::TranslationCacheConfig cfg;
  cfg.entries = 128;
  cfg.mtt_per_line = 8;
  cfg.miss_penalty = 1_us;
  double last = 1.0;
  for (i64 workers : {8, 16, 32, 64}) {
    const auto r = rdma::simulate_mtt(cfg, {workers, 1_MiB, 4_KiB, 200, true, 1});
    INFO(workers << " workers: hit rate " << r.hit_rate);
    CHECK(r.hit_rate > 0.0);  // cyclic order gives exactly 0 here
    CHECK(r.hit_rate < 1.0);
    CHECK(r.hit_rate < last);
    last = r.hit_rate;
  }
  // GPU pages at 64 workers: 192 live lines in 128, so neither all hits nor none.
  const auto gpu = rdma::simulate_mtt(cfg, {64, 1_MiB, 64_KiB, 200, true, 1});
  CHECK(gpu.hit_rate > 0.0);
  CHECK(gpu.hit_rate < 1.0);
}
