// What a measuring thread's transfer loops share (worker.cpp runs the host engines, and
// worker_cufile.cpp the cuFile calls): where the next operation goes, when to stop, how
// an operation is recorded, and the thread's durability policy.
#pragma once
#include <cstdint>
#include <string>

#include "measure/durability.hpp"
#include "measure/options.hpp"
#include "measure/results.hpp"
#include "measure/worker.hpp"
#include "sim/core/rng.hpp"

namespace iowall::measure {

struct Op {
  bool write = false;
  std::int64_t offset = 0;
};

// Where the next operation goes and whether it reads or writes; false once the thread's
// share is done, --runtime is over, another thread failed or an interrupt came.
class OpFeed {
public:
  OpFeed(const WorkerContext& ctx, const ThreadResult& t, std::int64_t region_ops, std::uint64_t seed);
  void start(std::uint64_t t0_ns);  // sets the --runtime deadline
  bool next(Op& op);

private:
  const WorkerContext& ctx_;
  std::int64_t io_, base_, region_ops_;
  bool random_;
  int read_pct_;
  bool by_time_;
  Rng rng_;
  std::int64_t issued_ = 0;
  std::uint64_t deadline_ = 0;
};

void record(ThreadResult& out, bool write, std::uint64_t latency_ns, std::int64_t bytes);
[[noreturn]] void io_failed(bool write, std::int64_t len, std::int64_t offset, const std::string& why);

// One thread's state as the cuFile loops see it.
struct CuFileLoop {
  const WorkerContext& ctx;
  ThreadResult& out;
  OpFeed& feed;
  SyncPolicy& sync;
  void* device = nullptr;  // the thread's registered GPU buffer, `slots` I/Os long
  int slots = 1;
  std::int64_t io = 0;
};

// gpu_direct: cuFileRead/cuFileWrite, one at a time.
void run_cufile_sync(CuFileLoop& l);
// gpu_batch: up to `slots` operations per cuFileBatchIOSubmit.
void run_cufile_batch(CuFileLoop& l);

}  // namespace iowall::measure
