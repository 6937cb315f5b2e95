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

std::int64_t parameter_count(const Architecture& a) {
  const std::int64_t h = a.hidden, head_dim = a.heads > 0 ? h / a.heads : 0;
  const std::int64_t attention = 2 * h * h + 2 * h * a.kv_heads * head_dim;
  const std::int64_t mlp = (a.gated_mlp ? 3 : 2) * h * a.ffn;
  const std::int64_t layer = 2 * h + attention + mlp;
  return a.layers * layer + a.vocab * h * (a.tied_embeddings ? 1 : 2) + h;
}

namespace {

const std::vector<Architecture>& architectures() {
  // Llama 3 shapes from Meta's published configs (hidden, intermediate, layers, heads,
  // key-value heads, vocabulary); the MLPerf Storage v2.0 checkpoint workloads from
  // their DLIO configurations (mlcommons/storage configs/dlio/workload/llama3_*.yaml),
  // which give the 70B 128 heads and define a 1T model of their own.
  static const std::vector<Architecture> a = {
      {"llama3-8b", "Llama 3 8B", "Meta Llama 3 8B config.json", 4096, 14336, 32, 32, 8, 128256},
      {"llama3-70b", "Llama 3 70B", "Meta Llama 3 70B config.json", 8192, 28672, 80, 64, 8, 128256},
      {"llama3-405b", "Llama 3.1 405B", "Meta Llama 3.1 405B config.json", 16384, 53248, 126, 128, 8, 128256},
      {"mlperf-llama3-8b", "MLPerf Storage v2.0 checkpoint workload llama3_8b", "mlcommons/storage llama3_8b.yaml",
       4096, 14336, 32, 32, 8, 128256},
      {"mlperf-llama3-70b", "MLPerf Storage v2.0 checkpoint workload llama3_70b", "mlcommons/storage llama3_70b.yaml",
       8192, 28672, 80, 128, 8, 128256},
      {"mlperf-llama3-405b", "MLPerf Storage v2.0 checkpoint workload llama3_405b",
       "mlcommons/storage llama3_405b.yaml", 16384, 53248, 126, 128, 8, 128256},
      {"mlperf-llama3-1t", "MLPerf Storage v2.0 checkpoint workload llama3_1t", "mlcommons/storage llama3_1t.yaml",
       25872, 98304, 128, 192, 32, 128256},
      {"gpt3-175b", "GPT-3 175B (dense MLP, tied embeddings)", "Brown et al. 2020, table 2.1", 12288, 49152, 96, 96,
       96, 50257, false, true},
  };
  return a;
}

}  // namespace

const Architecture* architecture(const std::string& name) {
  for (const Architecture& a : architectures())
    if (a.name == name) return &a;
  return nullptr;
}

std::vector<std::string> architecture_names() {
  std::vector<std::string> n;
  for (const Architecture& a : architectures()) n.push_back(a.name);
  return n;
}

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
    plan.rank_unwritten_max = std::max(plan.rank_unwritten_max, h - w);  // a rank writes only state it holds
    plan.rank_unwritten_min = r == 0 ? h - w : std::min(plan.rank_unwritten_min, h - w);
  }
  plan.node_save_max = *std::max_element(node_save.begin(), node_save.end());
  plan.node_restore_max = *std::max_element(node_restore.begin(), node_restore.end());
  return plan;
}

double share_above(const Architecture& a, const StateSpec& s, const Parallelism& p, double bytes) {
  const BytesPerParam b = bytes_per_param(s);
  const double h = static_cast<double>(a.hidden), head_dim = a.heads > 0 ? h / a.heads : 0, tp = p.tp;
  // Elements of one rank's share of each tensor of the model, with how many there are.
  std::vector<std::pair<double, double>> tensors = {
      {h * h / tp, 2.0 * a.layers},                                  // q, o
      {h * a.kv_heads * head_dim / tp, 2.0 * a.layers},               // k, v
      {h * a.ffn / tp, (a.gated_mlp ? 3.0 : 2.0) * a.layers},         // MLP
      {h, 2.0 * a.layers + 1},                                        // norms, whole on every rank
      {static_cast<double>(a.vocab) * h / tp, a.tied_embeddings ? 1.0 : 2.0}};  // embedding, head
  const double rank_params = static_cast<double>(s.params) / (tp * p.pp);
  double above = 0, all = 0;
  // One component of `width` bytes an element, flat over the data-parallel ranks or not.
  auto component = [&](double width, bool flat) {
    if (width <= 0) return;
    if (flat) {
      const double t = rank_params / p.dp * width;
      all += t;
      if (t > bytes) above += t;
      return;
    }
    for (const auto& [elements, count] : tensors) {
      const double t = elements * width;
      all += t * count;
      if (t > bytes) above += t * count;
    }
  };
  component(b.weights, p.zero >= 3);
  component(b.master, p.zero >= 1);
  for (int m = 0; m < b.moments / 4; ++m) component(4, p.zero >= 1);
  component(b.gradients, p.zero >= 2);
  return all > 0 ? above / all : 0;
}

}  // namespace iowall::checkpoint
