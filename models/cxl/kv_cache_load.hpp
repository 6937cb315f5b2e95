// A KV-cache offload workload on a CXL memory tier: every requester (a host or GPU
// CXL root port) keeps `qd` blocks in flight, each block `block` bytes read (or
// written back) as 64 B loads, as many lines at once as its request tags allow;
// blocks are spread over the devices at `interleave` granularity. A block's latency
// runs from its first load leaving to its last line arriving.
#pragma once
#include <deque>
#include <vector>

#include "models/cxl/cxl_fabric.hpp"
#include "sim/core/histogram.hpp"
#include "sim/core/rng.hpp"

namespace iowall::cxl {

struct KvCacheLoad {
  Bytes block{16 * 1024};
  i64 qd = 4;
  i64 blocks = 256;           // per requester
  Bytes interleave{4096};     // host-managed interleave across devices
  double shared_fraction = 0;  // lines another requester caches (back-invalidate first)
  double write_fraction = 0;   // blocks written back instead of read
};

struct RequesterResult {
  std::string id;
  Bytes useful;
  Time last_done;
};

struct LoadResult {
  Bytes moved, useful;  // lines moved x 64 B; bytes the workload asked for
  Time elapsed;         // until the last block of the slowest requester
  LogLinearHistogram block_latency_ns;
  std::vector<RequesterResult> requesters;
};

class KvCacheRun {
public:
  KvCacheRun(CxlFabric& fabric, std::vector<CxlHost*> hosts, std::vector<CxlType3*> devices, const KvCacheLoad& load,
             std::uint64_t seed);
  // Runs the workload to the end; RunError if it stalls.
  LoadResult run();

private:
  struct Block {
    std::uint32_t requester;
    i64 lines, issued, done;
    i64 first_line;  // global line index, decides the device of each line
    bool write;
    Time start;
  };
  struct Requester {
    CxlHost* host = nullptr;
    i64 started = 0, outstanding = 0;
    std::deque<std::uint32_t> active;  // blocks with lines left to issue, oldest first
    Bytes useful;
    Time last_done;
  };
  void start_block(std::uint32_t r);
  void pump(std::uint32_t r);
  void line_done(std::uint32_t block);

  CxlFabric& fabric_;
  std::vector<CxlType3*> devices_;
  KvCacheLoad load_;
  std::vector<Requester> requesters_;
  SlotPool<Block> blocks_;
  Rng rng_;
  LoadResult result_;
};

}  // namespace iowall::cxl
