// Model state from parameters: bytes per parameter, and which rank writes what.
#include <catch2/catch.hpp>

#include <numeric>

#include "sim/plan/checkpoint_state.hpp"
#include "sim/core/error.hpp"

using namespace iowall::checkpoint;

namespace {
std::int64_t sum(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t{0}); }
}  // namespace

TEST_CASE("bytes per parameter follow precision and optimizer", "[plan][state]") {
  StateSpec s;  // bf16 + Adam with fp32 master: the ZeRO paper's 2 + 4 + 4 + 4
  CHECK(bytes_per_param(s).saved() == 14);
  s.save_gradients = true;  // figures.md: 16 B/param held during training with gradients
  CHECK(bytes_per_param(s).saved() == 16);
  s = StateSpec{};
  s.precision = Precision::fp32;  // fp32 training has no separate master copy
  CHECK(bytes_per_param(s).saved() == 12);
  s.precision = Precision::fp8;
  CHECK(bytes_per_param(s).saved() == 13);
  s.precision = Precision::bf16;
  s.optimizer = Optimizer::sgd_momentum;
  CHECK(bytes_per_param(s).saved() == 10);
  s.optimizer = Optimizer::none;
  s.master_copy = false;
  CHECK(bytes_per_param(s).saved() == 2);
}

TEST_CASE("BLOOM-176B: 329 GB of bf16 weights and 2.3 TB with optimizer state, both in binary units", "[plan][state]") {
  // 176,247,271,424 parameters (BigScience model card).
  StateSpec s;
  s.params = 176'247'271'424;
  Parallelism p;  // the published checkpoint: tp 4 x pp 12 x dp 8 on 384 A100s, ZeRO-1
  p.gpus = 384, p.tp = 4, p.pp = 12, p.dp = 8, p.zero = 1;
  const ShardPlan plan = shard(s, p);
  CHECK(plan.total_bytes == s.params * 14);
  const double GiB = 1073741824.0;
  const double weights = 2.0 * s.params;
  // "329 GB" is GiB: 352.5e9 bytes = 328.3 GiB (0.2% off); in decimal GB it would be 7% off.
  CHECK(weights / GiB == Approx(329).epsilon(0.005));
  CHECK(weights / 1e9 == Approx(352.5).epsilon(0.001));
  // "2.3 TB" likewise reads as thousands of GiB: 14 B x 176.25e9 = 2298 GiB (decimal 2.47 TB).
  CHECK(plan.total_bytes / GiB / 1000 == Approx(2.3).epsilon(0.005));
  CHECK(plan.total_bytes / 1e12 == Approx(2.467).epsilon(0.001));
}

TEST_CASE("every ZeRO stage and writer policy saves exactly the whole state once", "[plan][state]") {
  StateSpec s;
  s.params = 1'000'000'007;  // prime: no split divides it evenly
  s.save_gradients = GENERATE(false, true);
  Parallelism p;
  p.gpus = 96, p.tp = 4, p.pp = 3, p.dp = 8, p.gpus_per_node = 8;
  const std::int64_t total = s.params * bytes_per_param(s).saved();
  for (int zero = 0; zero <= 3; ++zero)
    for (Replicated rep : {Replicated::rank0, Replicated::spread}) {
      p.zero = zero;
      p.replicated = rep;
      const ShardPlan plan = shard(s, p);
      INFO("ZeRO-" << zero << " " << name(rep));
      CHECK(sum(plan.save_bytes) == total);
      CHECK(plan.total_bytes == total);
      CHECK(plan.restore_total == sum(plan.restore_bytes));
      CHECK(plan.restore_total >= total);  // replicated state is read by every replica
    }
}

TEST_CASE("ZeRO stage decides writers, per-rank sizes and what a restore reads", "[plan][state]") {
  StateSpec s;
  s.params = 64'000'000'000;
  Parallelism p;
  p.gpus = 64, p.tp = 8, p.pp = 2, p.dp = 4;
  const std::int64_t total = s.params * 14, groups = 16;

  p.zero = 0;  // only DP rank 0 of each TP x PP group writes, everything of its shard
  ShardPlan z0 = shard(s, p);
  CHECK(z0.writers == 16);
  CHECK(z0.rank_save_max == total / groups);
  CHECK(z0.restore_total == 4 * total);  // every replica reads its full shard
  // tp = 8 fills a node, and DP rank 0 of both stages sits on two nodes: they carry it all.
  CHECK(z0.node_save_max == total / 2);

  p.zero = 1;  // optimizer state (12 B) over DP; weights (2 B) still written by DP rank 0
  ShardPlan z1 = shard(s, p);
  CHECK(z1.writers == 64);
  CHECK(z1.rank_save_max == s.params / groups * 2 + s.params / groups * 12 / 4);
  CHECK(z1.rank_save_min_writer == s.params / groups * 12 / 4);

  p.zero = 3;  // everything over DP: balanced
  ShardPlan z3 = shard(s, p);
  CHECK(z3.writers == 64);
  CHECK(z3.rank_save_max == total / 64);
  CHECK(z3.rank_save_min_writer == total / 64);
  CHECK(z3.restore_total == total);

  p.zero = 0;
  p.replicated = Replicated::spread;  // replicas divide the write: ZeRO-0 becomes balanced too
  CHECK(shard(s, p).rank_save_max == total / 64);
}

TEST_CASE("parallelism that does not multiply to the GPU count is bad input", "[plan][state][errors]") {
  Parallelism p;
  p.gpus = 1000, p.tp = 8, p.pp = 4, p.dp = 32;
  CHECK_THROWS_AS(validate(p), iowall::InputError);
  p.gpus = 1024;
  CHECK_NOTHROW(validate(p));
  p.zero = 4;
  CHECK_THROWS_AS(validate(p), iowall::InputError);
}
