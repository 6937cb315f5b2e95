// The HCA's cache of memory translations (MPT entries per region, MTT entries per
// page), least recently used out first. A miss reads the translation from host
// memory over PCIe: one read brings one cache line of consecutive MTT entries.
#pragma once
#include <cstdint>
#include <list>
#include <unordered_map>

#include "sim/core/params.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/units.hpp"

namespace iowall::rdma {

struct TranslationCacheConfig {
  i64 entries = 128;        // cached translation lines
  i64 mtt_per_line = 8;     // MTT entries fetched by one read
  Time miss_penalty;        // PCIe read round trip for one line
  static TranslationCacheConfig read(const Params& p);
};

class TranslationCache {
public:
  explicit TranslationCache(i64 entries) : capacity_(entries) {}
  // Looks up one key; a miss inserts it and evicts the least recently used key.
  bool access(std::uint64_t key);
  std::uint64_t hits() const { return hits_; }
  std::uint64_t misses() const { return misses_; }

private:
  i64 capacity_;
  std::list<std::uint64_t> order_;  // front: most recent
  std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> where_;
  std::uint64_t hits_ = 0, misses_ = 0;
};

// W workers, each reusing one registered buffer, issue W I/Os per round (a collective
// step), round after round, through one HCA: each worker once in turn, or workers
// drawn at random (as independent data loaders would interleave).
struct MttWorkload {
  i64 workers = 64;
  Bytes buffer;      // each worker's registered buffer, read whole by each I/O
  Bytes page_size;   // translation granularity (4 KiB host, 64 KiB GPU)
  i64 rounds = 16;   // the first round warms the cache and is not counted
  bool random_order = false;  // each I/O from a worker drawn at random, not in turn
  std::uint64_t seed = 1;
};

struct MttResult {
  i64 lines_per_io = 0;       // MPT entry plus MTT lines one I/O touches
  i64 live_lines = 0;         // all workers together
  double hit_rate = 0;        // over the counted rounds
  double misses_per_round = 0;
  Time overhead_per_round;    // misses x penalty, misses serialized (an upper bound)
};

MttResult simulate_mtt(const TranslationCacheConfig& cache, const MttWorkload& w);

}  // namespace iowall::rdma
