// Copies between a GPU and host memory as the CUDA driver makes them, and CPU passes over
// bytes in host memory, for one calling thread.
//   pinned          page-locked memory: one call cost, then the copy engine moves the bytes
//                   over the PCIe route (the GPU's copy_engine_bandwidth and the links).
//   pageable        the driver stages the bytes through its two pinned buffers of
//                   staging_chunk: the copy engine fills one while the calling thread copies
//                   the other (device-to-host), or the thread fills one while the copy
//                   engine empties the other (host-to-device), the thread at the driver's
//                   staged-copy rate; the slower stage sets the pace.
//   pageable_fresh  pageable memory touched for the first time: before the driver copies a
//                   chunk into it the calling thread takes a page fault per page (4 KiB, or
//                   2 MiB with transparent huge pages), each the cpu_socket's page_fault_cost
//                   plus zeroing the page at its page_zero_bandwidth. A host-to-device copy
//                   reads memory that holds data, so there it is pageable.
// The thread's CPU time is counted (RankThread) so a phase can say it was bound by it.
#pragma once
#include <string>

#include "models/gpu/gpu.hpp"
#include "models/host/cpu_socket.hpp"
#include "models/host/dram.hpp"
#include "sim/core/inline_function.hpp"
#include "sim/core/route.hpp"
#include "sim/run/data_path.hpp"

namespace iowall {

enum class HostMemoryKind { pinned, pageable, pageable_fresh };

// CPU time of first-touching `bytes` of anonymous memory in pages of 4 KiB or 2 MiB.
Time first_touch_time(const CpuSocket& cpu, Bytes bytes, bool huge_pages);

// One CPU thread of a workload (a rank's): work it does on a core, and its busy time.
class RankThread {
public:
  RankThread(CpuSocket& cpu, std::string name) : cpu_(&cpu), name_(std::move(name)) {}
  // `cost` of CPU time on a core, then `then`.
  void spend(Time cost, InlineFunction<void()> then);
  // The thread was busy for `t` elsewhere (a copy it made over a route).
  void add_busy(Time t) { busy_ = busy_ + t; }
  Time busy() const { return busy_; }
  CpuSocket& cpu() const { return *cpu_; }
  const std::string& name() const { return name_; }

private:
  CpuSocket* cpu_;
  std::string name_;
  Time busy_{};
};

// Where a copy to the GPU takes pages that may not be there yet (a mapped file): before the
// thread copies bytes [offset, offset + size) of the copy into the staging buffer, ready()
// brings them in (read, faulted in) and then calls done.
class CopySource {
public:
  using Done = InlineFunction<void()>;
  virtual ~CopySource() = default;
  virtual void ready(Bytes offset, Bytes size, Done done) = 0;
};

// One thread's copies between a GPU and host memory, one copy at a time.
class HostCopies {
public:
  using Done = InlineFunction<void()>;
  HostCopies(PathEnv& env, Gpu& gpu, Dram& dram, RankThread& thread);
  HostCopies(const HostCopies&) = delete;
  HostCopies& operator=(const HostCopies&) = delete;

  // One cudaMemcpy of `bytes` into host memory of `kind` (to_gpu false) or out of it;
  // `done` when it returns (from pageable memory: when its last byte is on the GPU). Out of
  // pageable memory, `source` (if any) brings each staging chunk's pages in first.
  void copy(Bytes bytes, bool to_gpu, HostMemoryKind kind, bool huge_pages, Done done, CopySource* source = nullptr);
  // A pass of the thread over `bytes` at `rate` (a checksum, a serializer).
  void cpu_pass(Bytes bytes, Bandwidth rate, Done done);

  const Route& d2h_route() const { return d2h_; }

private:
  Bytes chunk_bytes(i64 k) const;
  void pump();  // starts what the staged copy's two stages can start
  void cpu_step(i64 k);
  void cpu_copy(Bytes bytes);
  void dma_step(i64 k);
  void finished_chunk();

  PathEnv& env_;
  Gpu& gpu_;
  RankThread& thread_;
  const Route& d2h_;
  const Route& h2d_;
  Route staged_d2h_, staged_h2d_;  // the thread's copy between a staging buffer and user memory
  // The staged copy in progress: chunk k goes through its first stage (d2h: the copy
  // engine; h2d: the thread) into a free staging buffer, then its second stage frees it.
  struct Staged {
    Bytes total;
    Bytes chunk{1};
    i64 chunks = 0;
    i64 first_next = 0, second_next = 0, finished = 0;
    int free_buffers = 2, ready = 0;
    bool first_busy = false, second_busy = false;
    bool to_gpu = false, fresh = false, huge = false;
    CopySource* source = nullptr;
    Done done;
  } st_;
};

}  // namespace iowall
