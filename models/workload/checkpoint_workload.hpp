// A checkpoint of a training state, saved or restored by every target GPU (a rank) at
// once through the scenario's data path. Each rank holds `size` bytes in `tensors` tensors.
//   checkpoint_save  d2h: each tensor copied into host memory of a kind (models/host/
//                    host_memory.hpp: pinned, pageable, or pageable touched for the first
//                    time, with or without transparent huge pages; or "allocator": what
//                    a process's later save gets from glibc's malloc, memory an earlier
//                    save freed for a tensor up to allocator_reuse_max, new memory for a
//                    larger one, which malloc maps anew each time); serialize_write: a CPU
//                    pass over each piece (a checksum; none) then its write through the
//                    path (cpu_cached: buffered into the page cache; cpu_only: O_DIRECT;
//                    gpu_direct: cuFileWrite from GPU memory, no d2h); fsync: made durable
//                    as "durability" asks. "pipeline": sequential (torch.save: every copy,
//                    then serialize and write) or overlapped (FastPersist/DeepNVMe: double-
//                    buffered host buffers, a piece written while the next is copied).
//                    "file": new (the frameworks create their files: blocks allocated at
//                    writeback) or overwrite (a file laid out before).
//   checkpoint_load  read: the rank's file read through the path (the page cache cold or
//                    warm as the path starts), each piece passed over (deserialize), into
//                    host memory; h2d: each tensor copied to the GPU (gpu_direct reads
//                    straight into GPU memory). "reader": read (read() into the rank's
//                    memory) or mapped (the file mapped: one view per tensor, each bringing
//                    its tensor's range into the page cache, nothing copied; the h2d copy
//                    faults the mapping in, the cpu_socket's fault_around bytes per
//                    mapped_fault_cost). "gpu_memory": fresh (each tensor's GPU block new
//                    from cudaMalloc, its cost on the thread before the tensor's copy: a
//                    restore in a new process) or cached (the caching allocator's blocks).
// Each rank runs on one CPU thread; every phase records that thread's busy time, so a
// phase says whether the thread, the disk or the copy engine bound it.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/host/host_memory.hpp"
#include "sim/core/params.hpp"
#include "sim/core/slot_pool.hpp"
#include "sim/run/workload.hpp"

namespace iowall {

struct CheckpointConfig {
  bool save = true;
  Bytes size, io_size, buffer;
  i64 tensors = 1, qd = 1, buffers = 2, fsync_every = 1;
  HostMemoryKind host_memory = HostMemoryKind::pageable;
  // save, host_memory "allocator": a tensor up to this size copies into memory the process
  // kept from an earlier save (pageable), a larger one into new memory (pageable_fresh).
  std::optional<Bytes> allocator_reuse_max;
  bool huge_pages = false;
  bool overlapped = false;
  bool new_file = true;  // save: the file is created by the writes (its blocks allocated at writeback)
  // load: how the file reaches host memory: read() into the rank's memory (torch.load), or
  // mapped (safetensors): its pages cached by readahead, the tensors viewing the mapping.
  enum class Reader { read, mapped };
  Reader reader = Reader::read;
  // load: the GPU memory the tensors are copied into: fresh (each a new block from cudaMalloc,
  // the gpu's fresh_block_cost) or cached (blocks the caching allocator holds).
  enum class GpuMemory { fresh, cached };
  GpuMemory gpu_memory = GpuMemory::fresh;
  bool pass = false;    // a CRC-32 pass: serialize (save) or deserialize (load)
  Bandwidth pass_rate;  // its rate; zero: the rank's cpu_socket's crc32_per_core
  enum class Durability { none, fsync_end, fsync_each, o_dsync };
  Durability durability = Durability::fsync_end;
  std::vector<std::string> targets, storage;
};

// Reads the workload's parameters; `save`: checkpoint_save, else checkpoint_load.
CheckpointConfig read_checkpoint(const Params& p, bool save);

class CheckpointWorkload : public Workload {
public:
  CheckpointWorkload(const CheckpointConfig& config, WorkloadEnv& env);
  ~CheckpointWorkload() override;
  void start() override;
  std::string pending() const override;
  const std::vector<JobResult>& results() const override { return results_; }
  std::vector<std::vector<PhaseSpan>> phases() const override;
  bool reports_durability() const override { return config_.save; }
  bool durable() const override { return config_.save && config_.durability != CheckpointConfig::Durability::none; }

private:
  struct Rank;
  class MappedSource;
  // Phases.
  void begin_phase(Rank& r, const char* name);
  void end_phase(Rank& r);
  // Saving.
  void save_start(int rank);
  void copy_next_tensor(int rank);
  void copy_next_buffer(int rank);  // overlapped: the next buffer's d2h
  void write_pump(int rank);
  void write_piece(int rank, Bytes offset, Bytes bytes);
  void piece_written(std::uint32_t piece);
  // fsync of the rank's drives from `device` on; then the save ends (`last`) or goes on.
  void sync_all(int rank, std::uint32_t device, bool last);
  void save_done(int rank);
  // Loading.
  void load_start(int rank);
  void read_pump(int rank);
  void piece_read(std::uint32_t piece);
  void pass_read(int rank);
  void h2d_next_tensor(int rank);
  void h2d_copy_tensor(int rank);  // into its GPU block
  void load_done(int rank);

  HostMemoryKind copy_memory(Bytes bytes) const;  // the memory a d2h copy of `bytes` goes into
  Bytes tensor_start(i64 t) const;  // where tensor t starts in the rank's file
  Bytes tensor_bytes(i64 t) const;
  // Where the tensor holding byte `offset` ends (the tensors lie in order, tensor_bytes each).
  Bytes tensor_end(Bytes offset) const;
  IoRequest request(Rank& r, Bytes offset, Bytes bytes, bool write);

  CheckpointConfig config_;
  WorkloadEnv& env_;
  bool gpu_buffers_;  // the path takes GPU memory itself (cuFile): no host copy
  std::vector<std::unique_ptr<Rank>> ranks_;
  std::vector<std::unique_ptr<MappedSource>> sources_;  // mapped load: one per rank
  // A piece of I/O in flight: whose, how large, since when, on which drive.
  struct Piece {
    int rank;
    Bytes bytes;
    Time started;
    BlockStorage* storage;
  };
  SlotPool<Piece> pieces_;
  // A piece is back from the path: released, and counted in its rank's result (bytes, I/Os,
  // latency); its rank has one fewer in flight.
  Piece piece_back(std::uint32_t id);
  std::vector<JobResult> results_;
  int left_ = 0;
};

}  // namespace iowall
