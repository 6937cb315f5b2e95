// The checkpoint workload's state of one rank (its GPU, host memory and thread, its file's
// drives, its progress) and a mapped load's copy source, shared by the workload's save
// (checkpoint_workload.cpp) and load (checkpoint_load.cpp) halves. Internal to them.
#pragma once
#include <string>
#include <vector>

#include <fmt/format.h>

#include "models/host/host_memory.hpp"
#include "models/workload/checkpoint_workload.hpp"

namespace iowall {

// One rank: its GPU, host memory and thread, its file's drives, and its progress.
struct CheckpointWorkload::Rank {
  Rank(int i, Gpu& g, Dram& d, CpuSocket& cpu, PathEnv& paths)
      : index(i), gpu(&g), dram(&d), thread(cpu, fmt::format("{}/thread{}", cpu.name(), i)), copies(paths, g, d, thread) {}
  int index;
  Gpu* gpu;
  Dram* dram;
  RankThread thread;
  HostCopies copies;
  std::vector<BlockStorage*> storage;
  Bytes base;  // the rank's file starts here on its drives
  Bandwidth pass_rate;  // its serializer's (deserializer's) CRC-32 pass; zero: none
  std::vector<PhaseSpan> phases;
  Time busy_at_start{};
  // Progress.
  i64 tensor = 0;
  Bytes ready, issued, done;  // on the host ready to write (save); handed out; completed (and passed over)
  std::uint64_t pieces = 0;
  int inflight = 0;
  bool passing = false, syncing = false, copying = false;
  i64 unsynced = 0;
  i64 buffer_next = 0;  // overlapped: the next buffer to copy
  int free_buffers = 0;
  Bytes freed;  // overlapped: bytes whose buffers are free again
  Bytes pass_pending;  // load: bytes read, waiting for the thread's pass
  Bytes passed;        // save: the piece under the serializer's pass
};

// A mapped load's copy to the GPU reads the mapping chunk by chunk, as the driver's staging
// memcpy does: a chunk's pages not cached yet are read by the kernel's readahead running
// ahead of the touches (a stream, IoRequest::Into::page_cache_stream), then the thread
// faults the chunk in, fault_around at a time (cpu_socket mapped_fault_cost).
class CheckpointWorkload::MappedSource final : public CopySource {
public:
  MappedSource(CheckpointWorkload& w, int rank) : w_(w), rank_(rank) {}
  // The tensor the next copy takes starts here in the file.
  void tensor_at(Bytes base) { base_ = base; }
  void ready(Bytes offset, Bytes size, Done done) override {
    Rank& r = *w_.ranks_[rank_];
    pending_ = std::move(done);
    IoRequest touch = w_.request(r, base_ + offset, size, false);
    touch.into = IoRequest::Into::page_cache_stream;
    w_.env_.path.submit(touch, [this, size] {
      RankThread& thread = w_.ranks_[rank_]->thread;
      const CpuSocket& cpu = thread.cpu();
      thread.spend(cpu.mapped_fault_cost * ceil_div(size, std::max(Bytes(1), cpu.fault_around)), [this] {
        Done go = std::move(pending_);  // the next chunk's ready() may set it again
        go();
      });
    });
  }

private:
  CheckpointWorkload& w_;
  int rank_;
  Bytes base_;    // the tensor being copied starts here in the file
  Done pending_;  // what the chunk being brought in goes on with
};

}  // namespace iowall
