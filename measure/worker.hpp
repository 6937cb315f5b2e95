// One measuring thread: it owns a contiguous region of the target (as gdsio's threads
// do), issues operations into it until its share of -s is done or --runtime is over,
// and records each operation's latency.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>

#include "measure/cuda_runtime.hpp"
#include "measure/cufile_api.hpp"
#include "measure/options.hpp"
#include "measure/results.hpp"

namespace iowall::measure {

struct WorkerContext {
  const MeasureOptions* options = nullptr;
  int fd = -1;
  const CudaRuntime* cuda = nullptr;      // GPU types
  const CuFileSession* cufile = nullptr;  // gpu_direct, gpu_batch
  std::atomic<bool>* abort = nullptr;     // set by any failing thread
  std::atomic<std::uint64_t>* t0_ns = nullptr;  // the common start, set at the barrier
  std::function<void()> wait_for_start;   // every thread's setup is done after this
};

// Runs one thread's share. Never throws: errors land in `out.error` and set `abort`.
void run_worker(const WorkerContext& ctx, ThreadResult& out, std::int64_t region_ops, std::uint64_t seed);

std::uint64_t monotonic_ns();

}  // namespace iowall::measure
