#include "sim/plan/checkpoint_state.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace iowall::checkpoint {

Precision parse_precision(const std::string& t, const std::string& option) {
  if (t == "bf16") return Precision::bf16;
  if (t == "fp16") return Precision::fp16;
  if (t == "fp32") return Precision::fp32;
  if (t == "fp8") return Precision::fp8;
  throw InputError("", option, fmt::format("\"{}\" is not a precision (expected bf16, fp16, fp32 or fp8)", t));
}
Optimizer parse_optimizer(const std::string& t, const std::string& option) {
  if (t == "adam") return Optimizer::adam;
  if (t == "adamw") return Optimizer::adamw;
  if (t == "sgd-momentum") return Optimizer::sgd_momentum;
  if (t == "none" || t == "sgd") return Optimizer::none;
  throw InputError("", option,
                   fmt::format("\"{}\" is not an optimizer (expected adam, adamw, sgd-momentum, sgd or none)", t));
}
Replicated parse_replicated(const std::string& t, const std::string& option) {
  if (t == "rank0") return Replicated::rank0;
  if (t == "spread") return Replicated::spread;
  throw InputError("", option, fmt::format("\"{}\" is not a writer policy (expected rank0 or spread)", t));
}
const char* name(Precision p) {
  switch (p) {
    case Precision::bf16: return "bf16";
    case Precision::fp16: return "fp16";
    case Precision::fp32: return "fp32";
    case Precision::fp8: return "fp8";
  }
  return "?";
}
const char* name(Optimizer o) {
  switch (o) {
    case Optimizer::adam: return "adam";
    case Optimizer::adamw: return "adamw";
    case Optimizer::sgd_momentum: return "sgd-momentum";
    case Optimizer::none: return "none";
  }
  return "?";
}
const char* name(Replicated r) { return r == Replicated::rank0 ? "rank0" : "spread"; }

BytesPerParam bytes_per_param(const StateSpec& s) {
  BytesPerParam b;
  switch (s.precision) {
    case Precision::fp8: b.weights = 1; break;
    case Precision::bf16:
    case Precision::fp16: b.weights = 2; break;
    case Precision::fp32: b.weights = 4; break;
  }
  // The fp32 master copy exists only when the working weights are narrower than fp32.
  b.master = s.master_copy && s.precision != Precision::fp32 ? 4 : 0;
  // Optimizer moments are kept in fp32: Adam/AdamW two (m, v), SGD with momentum one.
  if (s.optimizer == Optimizer::adam || s.optimizer == Optimizer::adamw) b.moments = 8;
  if (s.optimizer == Optimizer::sgd_momentum) b.moments = 4;
  // Gradients have the working precision (ZeRO paper: 2 B fp16 gradients).
  b.gradients = s.save_gradients ? b.weights : 0;
  return b;
}

void validate(const Parallelism& p) {
  auto positive = [](int v, const char* opt) {
    if (v < 1) throw InputError("", opt, fmt::format("must be at least 1 (got {})", v));
  };
  positive(p.gpus, "--gpus");
  positive(p.tp, "--tp");
  positive(p.pp, "--pp");
  positive(p.dp, "--dp");
  positive(p.gpus_per_node, "--gpus-per-node");
  if (p.zero < 0 || p.zero > 3) throw InputError("", "--zero", fmt::format("ZeRO stage {} does not exist (0 to 3)", p.zero));
  const std::int64_t product = std::int64_t{p.tp} * p.pp * p.dp;
  if (product != p.gpus)
    throw InputError("", "--tp/--pp/--dp",
                     fmt::format("tp x pp x dp = {} x {} x {} = {} does not equal --gpus {}", p.tp, p.pp, p.dp,
                                 product, p.gpus));
}

namespace {
// `n` elements split over `k` parts: the first n % k parts get one more.
std::int64_t part(std::int64_t n, std::int64_t k, std::int64_t i) { return n / k + (i < n % k ? 1 : 0); }
}  // namespace

ShardPlan shard(const StateSpec& s, const Parallelism& p) {
  validate(p);
  const BytesPerParam b = bytes_per_param(s);
  const std::int64_t groups = std::int64_t{p.tp} * p.pp;
  const bool spread = p.replicated == Replicated::spread;
  // Which components are divided over the DP replicas when written, and when held.
  const bool save_w = p.zero >= 3 || spread, save_opt = p.zero >= 1 || spread, save_g = p.zero >= 2 || spread;
  const bool hold_w = p.zero >= 3, hold_opt = p.zero >= 1, hold_g = p.zero >= 2;

  ShardPlan plan;
  plan.save_bytes.resize(p.gpus);
  plan.restore_bytes.resize(p.gpus);
  plan.nodes = (p.gpus + p.gpus_per_node - 1) / p.gpus_per_node;
  std::vector<std::int64_t> node_save(plan.nodes), node_restore(plan.nodes);
  for (int r = 0; r < p.gpus; ++r) {
    const int tp = r % p.tp, dp = (r / p.tp) % p.dp, pp = r / (p.tp * p.dp);
    const std::int64_t whole = part(s.params, groups, std::int64_t{pp} * p.tp + tp);  // this TP x PP shard
    const std::int64_t slice = part(whole, p.dp, dp);                                   // its DP share
    auto saved = [&](bool sharded) { return sharded ? slice : (dp == 0 ? whole : 0); };
    auto held = [&](bool sharded) { return sharded ? slice : whole; };
    const std::int64_t opt = b.master + b.moments;
    const std::int64_t w = saved(save_w) * b.weights + saved(save_opt) * opt + saved(save_g) * b.gradients;
    const std::int64_t h = held(hold_w) * b.weights + held(hold_opt) * opt + held(hold_g) * b.gradients;
    plan.save_bytes[r] = w;
    plan.restore_bytes[r] = h;
    plan.total_bytes += w;
    plan.restore_total += h;
    node_save[r / p.gpus_per_node] += w;
    node_restore[r / p.gpus_per_node] += h;
    if (w > 0) {
      ++plan.writers;
      plan.rank_save_min_writer = plan.writers == 1 ? w : std::min(plan.rank_save_min_writer, w);
    }
    plan.rank_save_max = std::max(plan.rank_save_max, w);
    plan.rank_restore_max = std::max(plan.rank_restore_max, h);
    plan.rank_restore_min = r == 0 ? h : std::min(plan.rank_restore_min, h);
  }
  plan.node_save_max = *std::max_element(node_save.begin(), node_save.end());
  plan.node_restore_max = *std::max_element(node_restore.begin(), node_restore.end());
  return plan;
}

}  // namespace iowall::checkpoint
