// The load half of the checkpoint workload (models/workload/checkpoint_workload.hpp): the
// rank's file read through the path (read() pieces at the workload's depth, or a mapped
// file's tensor views), each piece passed over by the deserializer, then each tensor copied
// to the GPU (out of a mapping, its chunks brought in and faulted in first), into a new GPU
// block from cudaMalloc or one the caching allocator holds.
#include <algorithm>

#include "models/workload/checkpoint_rank.hpp"
#include "models/workload/checkpoint_workload.hpp"

namespace iowall {

void CheckpointWorkload::load_start(int rank) {
  begin_phase(*ranks_[rank], "read");
  ranks_[rank]->ready = config_.size;
  read_pump(rank);
}

void CheckpointWorkload::read_pump(int rank) {
  Rank& r = *ranks_[rank];
  const bool mapped = config_.reader == CheckpointConfig::Reader::mapped;
  while (r.inflight < config_.qd && r.issued < config_.size) {
    // A mapped load makes one view per tensor, each bringing its tensor's range in.
    const Bytes bytes = mapped ? tensor_end(r.issued) - r.issued : std::min(config_.io_size, config_.size - r.issued);
    IoRequest io = request(r, r.issued, bytes, false);
    if (mapped)
      io.into = IoRequest::Into::page_cache;  // the mapping's pages: nothing copied
    // New host memory faults in as the data is copied into it.
    else if (!gpu_buffers_ && config_.host_memory == HostMemoryKind::pageable_fresh)
      io.user_pages_cost = first_touch_time(r.thread.cpu(), bytes, config_.huge_pages);
    r.issued += bytes;
    ++r.inflight;
    const std::uint32_t id = pieces_.acquire({rank, bytes, env_.ctx.now(), io.storage});
    env_.path.submit(io, [this, id] { piece_read(id); });
  }
}

void CheckpointWorkload::piece_read(std::uint32_t id) {
  const Piece p = piece_back(id);
  Rank& r = *ranks_[p.rank];
  r.pass_pending += p.bytes;
  read_pump(p.rank);
  pass_read(p.rank);
}

// The deserializer's pass over what was read, one piece at a time on the rank's thread;
// the read phase ends when every byte is read and passed over.
void CheckpointWorkload::pass_read(int rank) {
  Rank& r = *ranks_[rank];
  if (r.passing) return;
  if (r.pass_rate.is_positive() && r.pass_pending.is_positive()) {
    const Bytes bytes = r.pass_pending;
    r.pass_pending = Bytes(0);
    r.passing = true;
    return r.copies.cpu_pass(bytes, r.pass_rate, [this, rank, bytes] {
      ranks_[rank]->passing = false;
      ranks_[rank]->done += bytes;
      pass_read(rank);
    });
  }
  if (r.pass_rate.is_zero()) {
    r.done += r.pass_pending;
    r.pass_pending = Bytes(0);
  }
  if (r.done < config_.size || r.inflight > 0) return;
  end_phase(r);
  begin_phase(r, "h2d");
  if (gpu_buffers_) {  // cuFile read into GPU memory: nothing to copy
    end_phase(r);
    return load_done(rank);
  }
  h2d_next_tensor(rank);
}

void CheckpointWorkload::h2d_next_tensor(int rank) {
  Rank& r = *ranks_[rank];
  if (r.tensor == config_.tensors) {
    end_phase(r);
    return load_done(rank);
  }
  const Bytes bytes = tensor_bytes(r.tensor++);
  if (config_.gpu_memory == CheckpointConfig::GpuMemory::cached) return h2d_copy_tensor(rank);
  // The tensor's GPU block comes from cudaMalloc, synchronously on the thread, before its copy.
  const Gpu& gpu = *r.gpu;
  r.thread.spend(gpu.fresh_block_cost + transfer_time(bytes, gpu.fresh_block_bandwidth),
                 [this, rank] { h2d_copy_tensor(rank); });
}

// The copy of the tensor h2d_next_tensor took (the rank's tensor - 1) into its GPU block.
void CheckpointWorkload::h2d_copy_tensor(int rank) {
  Rank& r = *ranks_[rank];
  const i64 t = r.tensor - 1;
  // Memory the read filled is mapped: a copy out of it is a pageable (or pinned) one; a
  // mapped file's pages are brought in chunk by chunk as the copy reaches them.
  const HostMemoryKind kind =
      config_.host_memory == HostMemoryKind::pinned ? HostMemoryKind::pinned : HostMemoryKind::pageable;
  MappedSource* source = sources_.empty() ? nullptr : sources_[rank].get();
  if (source) source->tensor_at(tensor_start(t));
  r.copies.copy(tensor_bytes(t), true, kind, config_.huge_pages, [this, rank] { h2d_next_tensor(rank); }, source);
}

void CheckpointWorkload::load_done(int rank) {
  JobResult& res = results_[rank];
  res.first_done = res.last_done = env_.ctx.now();
  --left_;
}

}  // namespace iowall
