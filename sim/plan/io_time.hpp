// Closed-form times of moving every rank's bytes between HBM and storage.
// A phase is a chain of stages (GPU copy engine, CPU memcpy, storage I/O); each stage
// is bounded by the resources it uses: per rank (copy engine, one memcpy thread, the
// GPU's PCIe link for GDS, the storage client), per node (host memory crossings, the
// node's storage link) and for the whole system (the storage target's aggregate).
// The slowest rank decides: last-done is the largest load / capacity over those
// resources (a rate-proportional schedule reaches it); first-done is the rank that
// finishes first at the max-min fair shares of the start.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/plan/plan_types.hpp"

namespace iowall::plan {

enum class Direction { save, restore };

struct Stages {
  bool gpu_copy = false;  // copy engine between HBM and host memory
  int memcpys = 0;        // CPU copies per byte in host memory
  bool io = true;         // the storage transfer
  bool io_via_gpu = false;  // GDS: storage DMA straight to HBM (else from host memory)
};

// The stages of each phase for the input's path and mode.
Stages save_stages(const PlanInput& in);     // synchronous save (or async flush, see flush_stages)
Stages restore_stages(const PlanInput& in);
Stages copy_stages(const PlanInput& in);     // async: HBM -> host memory only
Stages flush_stages(const PlanInput& in);    // async: host memory -> storage

// The per-rank bytes of a phase, reduced once to what the bounds need: totals, the
// busiest rank and node, and the few distinct (bytes, writers on its node) classes,
// so that searches over bandwidth cost nothing per rank.
struct RankLoad {
  double total = 0, rank_max = 0, node_max = 0;
  int active = 0;  // ranks with bytes
  struct Class {
    double bytes = 0;
    int node_active = 0;
    std::int64_t count = 0;
  };
  std::vector<Class> classes;  // ranks with bytes, grouped
};
RankLoad rank_load(const std::vector<std::int64_t>& rank_bytes, int gpus_per_node);

Phase transfer(const PlanInput& in, const RankLoad& load, Direction dir, const Stages& st);

// Seconds of one barrier over `ranks` (the input's, or log2(ranks) rounds of 10 us).
double barrier_time(const PlanInput& in, int ranks);

}  // namespace iowall::plan
