// Model state of a training job and how a checkpoint splits it over ranks.
// Bytes per parameter come from precision and optimizer (ZeRO paper arithmetic:
// mixed-precision Adam saves 2 B bf16 weights + 4 B fp32 master + 2 x 4 B moments =
// 14 B/param, figures.md); tensor x pipeline x data parallelism and the ZeRO stage
// decide which rank writes which shard, and which state each rank must read back.
// Closed-form arithmetic the planner builds on, so it lives in sim/plan.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace iowall::checkpoint {

enum class Precision { bf16, fp16, fp32, fp8 };
enum class Optimizer { adam, adamw, sgd_momentum, none };
// Who writes state that every data-parallel replica holds (weights below ZeRO-3):
// rank0 = DP rank 0 of each TP x PP group (Megatron, DeepSpeed); spread = the write
// is divided over the replicas (PyTorch DCP's de-duplicating planner).
enum class Replicated { rank0, spread };

Precision parse_precision(const std::string& text, const std::string& option);
Optimizer parse_optimizer(const std::string& text, const std::string& option);
Replicated parse_replicated(const std::string& text, const std::string& option);
const char* name(Precision p);
const char* name(Optimizer o);
const char* name(Replicated r);

// A decoder-only transformer's shape, for its parameter count: per layer two norms
// (h each), the attention projections (q and o: h x h each; k and v: h x kv_heads x
// head_dim each, grouped-query attention), the MLP (gated: three h x ffn matrices,
// else two); the token embedding and, unless tied, the output head (vocab x h); a final
// norm (h).
struct Architecture {
  std::string name, description, source;
  std::int64_t hidden = 0, ffn = 0, layers = 0, heads = 0, kv_heads = 0, vocab = 0;
  bool gated_mlp = true, tied_embeddings = false;
};
std::int64_t parameter_count(const Architecture& a);
// The named architectures (published model configurations), or null.
const Architecture* architecture(const std::string& name);
std::vector<std::string> architecture_names();

struct StateSpec {
  std::int64_t params = 0;
  Precision precision = Precision::bf16;
  Optimizer optimizer = Optimizer::adam;
  bool master_copy = true;      // fp32 master weights (mixed precision); false for fp32 training
  bool save_gradients = false;  // gradients are transient; saved only when asked
};

// Bytes per parameter of each component of the state.
struct BytesPerParam {
  int weights = 0, master = 0, moments = 0, gradients = 0;
  int saved() const { return weights + master + moments + gradients; }
};
BytesPerParam bytes_per_param(const StateSpec& s);

struct Parallelism {
  int gpus = 1, tp = 1, pp = 1, dp = 1;
  int zero = 0;            // ZeRO stage 0..3
  int gpus_per_node = 8;
  Replicated replicated = Replicated::rank0;
};
// Throws InputError when tp x pp x dp != gpus or a factor is out of range.
void validate(const Parallelism& p);

// Which bytes each rank writes on save and reads on restore. Ranks are numbered
// Megatron-style: tp fastest, then dp, then pp; node = rank / gpus_per_node.
struct ShardPlan {
  std::vector<std::int64_t> save_bytes;     // per rank (0 = this rank writes nothing)
  std::vector<std::int64_t> restore_bytes;  // per rank: everything it holds in memory
  std::int64_t total_bytes = 0;             // unique bytes of one checkpoint
  int writers = 0;                          // ranks with save_bytes > 0
  int nodes = 0;
  std::int64_t node_save_max = 0, node_restore_max = 0;  // busiest node
  std::int64_t rank_save_max = 0, rank_save_min_writer = 0, rank_restore_max = 0, rank_restore_min = 0;
  std::int64_t restore_total = 0;           // bytes read back by all ranks together
  // Bytes a rank holds but did not write (replicated state another rank wrote): what a
  // restore that reads every byte once must send it; the most and the least of any rank.
  std::int64_t rank_unwritten_max = 0, rank_unwritten_min = 0;
};
ShardPlan shard(const StateSpec& s, const Parallelism& p);

// The share of a checkpoint's bytes held in tensors larger than `bytes`, the state laid out
// as the frameworks save it: each weight matrix split over the tensor-parallel ranks (norms
// whole), one tensor per component (weights, fp32 master, each optimizer moment, gradients),
// and a component that ZeRO divides over the data-parallel ranks saved as one flat tensor per
// rank (DeepSpeed's partitions).
double share_above(const Architecture& a, const StateSpec& s, const Parallelism& p, double bytes);

}  // namespace iowall::checkpoint
