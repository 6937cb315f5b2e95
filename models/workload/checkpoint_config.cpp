// The checkpoint workloads' parameters (models/workload/checkpoint_workload.hpp), read
// the same way for both kinds so both document every key; those of the other kind are
// refused with the key's pointer.
#include <fmt/format.h>

#include "models/workload/checkpoint_workload.hpp"

namespace iowall {

namespace {

bool checkpoint_given(const Params& p, const char* key) { return !p.describing() && p.json().contains(key); }

}  // namespace

CheckpointConfig read_checkpoint(const Params& p, bool save) {
  CheckpointConfig c;
  c.save = save;
  c.size = p.get_bytes("size", "1 GiB", "bytes of training state each rank (target GPU) saves or restores", "");
  c.tensors = p.get_int("tensors", 128, 1, i64{1} << 30, "tensors the state is held in: one copy call each",
                        "scripts/checkpoint-frameworks.py's --tensors 128 (layers: its state holds 4 tensors a layer, 512, as the "
                        "validation scenarios set)");
  c.io_size = p.get_bytes("io_size", "1 MiB", "one write (read) the file is written (read) in",
                          "assumed: a framework hands the kernel whole tensors, which the page cache takes a "
                          "page batch at a time");
  c.qd = p.get_int("qd", 1, 1, 65536,
                   "writes (reads) a rank keeps in flight: 1 for a blocking write()/read(); more for asynchronous "
                   "I/O (io_uring, FastPersist) or the kernel's asynchronous readahead of a buffered read",
                   "Linux mm/readahead.c: the next window is read while the reader copies the current one");
  const std::string memory = p.get_choice(
      "host_memory", "pageable_fresh", {"pinned", "pageable", "pageable_fresh", "allocator"},
      "host memory the state is copied into (save) or read into (load): pinned (page-locked), pageable (reused, "
      "already mapped), pageable_fresh (new memory: a page fault per page on first touch) or allocator (save: "
      "a process's later save through glibc malloc: a tensor up to allocator_reuse_max into memory an earlier "
      "save freed, a larger one into new memory)",
      "torch.save copies each tensor with .cpu() into newly allocated memory; torch.load allocates its storages; "
      "scripts/checkpoint-frameworks.py: rounds after a process's first found 2-8 GB of 4-16 MB tensors' memory "
      "mapped (0-5,418 minor faults against 488,060-1,469,320), 13 of 15 sessions");
  c.host_memory = memory == "pinned"     ? HostMemoryKind::pinned
                  : memory == "pageable" ? HostMemoryKind::pageable
                                         : HostMemoryKind::pageable_fresh;
  const Bytes reuse_max = p.get_bytes(
      "allocator_reuse_max", "32 MiB",
      "host_memory allocator: the largest tensor whose freed memory the process keeps for the next save (glibc's "
      "mmap threshold at its highest)",
      "glibc malloc, mallopt(3) M_MMAP_THRESHOLD: a block at or above the threshold is mmap()ed and unmapped when "
      "freed; the threshold rises to the size of a freed mmapped block up to DEFAULT_MMAP_THRESHOLD_MAX, "
      "4*1024*1024*sizeof(long) = 32 MiB on 64-bit; PyTorch's CPU allocator takes tensors' memory from "
      "posix_memalign (c10 alloc_cpu)");
  if (memory == "allocator") {
    if (!save) p.fail("host_memory", "allocator applies to checkpoint_save only (a restore's process is new)");
    c.allocator_reuse_max = reuse_max;
  } else if (checkpoint_given(p, "allocator_reuse_max")) {
    p.fail("allocator_reuse_max", "applies with \"host_memory\": \"allocator\" only");
  }
  c.huge_pages = p.get_choice("thp", "off", {"off", "on"},
                              "transparent huge pages for pageable memory: on (one fault per 2 MiB) or off (per 4 KiB)",
                              "/sys/kernel/mm/transparent_hugepage/enabled = madvise, and torch does not madvise: "
                              "off") == "on";
  const std::string serialize =
      p.get_choice("serialize", "none", {"none", "crc32"},
                   "save: a CPU pass over each piece before it is written: none (safetensors, raw bytes) or crc32 "
                   "(the zip CRC-32 torch.save and DCP keep per record)",
                   "PyTorch serialization: zip archive records with CRC-32 (torch.save compute_crc32)");
  const std::string deserialize = p.get_choice(
      "deserialize", "none", {"none", "crc32"}, "load: a CPU pass over each piece after it is read (none: torch.load "
      "and safetensors do not verify a checksum by default)", "");
  const Bandwidth crc = p.get_bandwidth(
      "crc32_bandwidth", "0 GB/s", "one thread's CRC-32 pass (0: the rank's cpu_socket's crc32_per_core)",
      "the CPU's rate; a scenario sets its own for a measured serializer");
  const std::string pipeline = p.get_choice(
      "pipeline", "sequential", {"sequential", "overlapped"},
      "save: sequential (every tensor copied to host memory, then serialized and written: torch.save) or overlapped "
      "(double-buffered host buffers: one written while the next is copied: FastPersist, DeepNVMe)",
      "FastPersist (arXiv 2406.13768); DeepSpeed DeepNVMe");
  c.buffer = p.get_bytes("buffer", "64 MiB", "overlapped: one host buffer", "assumed (FastPersist uses a few tens of MB)");
  c.buffers = p.get_int("buffers", 2, 1, 1024, "overlapped: host buffers (2: double buffering)", "FastPersist");
  const std::string durability = p.get_choice(
      "durability", "fsync_end", {"none", "fsync_end", "fsync_each", "o_dsync"},
      "save: when the file is made durable: none, fsync_end (fsync of the file after its last write), fsync_each "
      "(every fsync_every writes), o_dsync (every write returns durable)",
      "torch.save leaves durability to the caller; scripts/checkpoint-frameworks.py fsyncs at the end");
  c.fsync_every = p.get_int("fsync_every", 1, 1, i64{1} << 40, "fsync_each: writes between fsyncs", "fio fsync=N");
  const std::string file = p.get_choice(
      "file", "new", {"new", "overwrite"},
      "save: the checkpoint's file: new (created and extended by the writes: its blocks allocated as they are "
      "written back) or overwrite (a file laid out before, rewritten in place)",
      "torch.save, safetensors save_file and torch.distributed.checkpoint create their files; "
      "scripts/probe-writeback.py: a new file's fsync 20-38% slower than an overwrite's");
  const std::string reader = p.get_choice(
      "reader", "read", {"read", "mapped"},
      "load: read (read() into the rank's host memory: torch.load) or mapped (the file mapped privately, one view "
      "per tensor in file order, each bringing up to 2 x the path's read_ahead of its tensor into the page cache "
      "before the next; the copy to the GPU reading the rest as it touches it and faulting it in: safetensors' "
      "load_file)",
      "safetensors 0.8 load_file backend \"mmap\" (torch.UntypedStorage.from_file, shared=False); "
      "scripts/probe-mapped-load.py: no read() calls, one major fault per tensor reading its whole range (8 and 16 "
      "MiB tensors, 8 MiB read_ahead_kb) or 16 MiB of it (128 MiB tensors), the disk idle between tensors, "
      "fault-around faults in the copy");
  const std::string gpu_memory = p.get_choice(
      "gpu_memory", "fresh", {"fresh", "cached"},
      "load: the GPU memory the tensors are copied into: fresh (each a new block from cudaMalloc, the gpu's "
      "fresh_block_cost and fresh_block_bandwidth before its copy: a restore in a new process, or the first of "
      "its sizes) or cached (blocks PyTorch's caching allocator holds free, e.g. a second restore in one process)",
      "PyTorch CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp): cudaMalloc only when no cached block "
      "fits; scripts/checkpoint-frameworks.py's cold loads are a round's first of their sizes on the GPU");
  const std::string targets = p.get_text("targets", "all_gpus", "the ranks' GPUs, comma-separated ids, or all_gpus", "");
  const std::string storage = p.get_text("storage", "local",
                                         "each rank's drives (its file striped over them): SSD ids, local, all or paired",
                                         "");
  if (p.describing()) return c;
  if (!c.size.is_positive()) p.fail("size", "the size must be positive");
  if (!c.io_size.is_positive()) p.fail("io_size", "the I/O size must be positive");
  if (c.tensors > c.size.count()) p.fail("tensors", fmt::format("{} tensors hold more than {} bytes", c.tensors, c.size.count()));
  if (!c.buffer.is_positive()) p.fail("buffer", "the buffer must be positive");
  // Keys of the other kind: a restore writes nothing, so it has no durability.
  for (const char* k : save ? std::vector<const char*>{"deserialize", "reader", "gpu_memory"}
                            : std::vector<const char*>{"serialize", "pipeline", "buffer", "buffers", "durability",
                                                       "fsync_every", "file"})
    if (checkpoint_given(p, k))
      p.fail(k, save ? "applies to checkpoint_load only" : "applies to checkpoint_save only (a restore only reads)");
  if (checkpoint_given(p, "fsync_every") && durability != "fsync_each")
    p.fail("fsync_every", "applies with \"durability\": \"fsync_each\" only");
  c.reader = reader == "mapped" ? CheckpointConfig::Reader::mapped : CheckpointConfig::Reader::read;
  if (c.reader == CheckpointConfig::Reader::mapped && checkpoint_given(p, "host_memory"))
    p.fail("host_memory", "applies to \"reader\": \"read\" only (a mapped file's data stays in the page cache)");
  c.gpu_memory = gpu_memory == "cached" ? CheckpointConfig::GpuMemory::cached : CheckpointConfig::GpuMemory::fresh;
  c.overlapped = pipeline == "overlapped";
  if (c.overlapped && c.allocator_reuse_max)
    p.fail("host_memory", "allocator applies to a sequential save (each tensor copied into memory of its own); an "
                          "overlapped one reuses its buffers: pageable or pinned");
  c.new_file = file == "new";
  if (c.overlapped && c.buffer < c.io_size)
    p.fail("buffer", fmt::format("{} is smaller than one {} write", to_string(c.buffer), to_string(c.io_size)));
  c.pass = (save ? serialize : deserialize) == "crc32";
  c.pass_rate = crc;
  c.durability = durability == "none"         ? CheckpointConfig::Durability::none
                 : durability == "fsync_each" ? CheckpointConfig::Durability::fsync_each
                 : durability == "o_dsync"    ? CheckpointConfig::Durability::o_dsync
                                              : CheckpointConfig::Durability::fsync_end;
  if (targets != "all_gpus") c.targets = split_list(targets);
  if (targets != "all_gpus" && c.targets.empty())
    p.fail("targets", "names no target (expected GPU ids, comma-separated, or all_gpus)");
  c.storage = split_list(storage);
  if (c.storage.empty()) p.fail("storage", "names no storage (expected SSD ids, comma-separated, or local, all or paired)");
  return c;
}

}  // namespace iowall
