// A data path moves one I/O between storage and its target (GPU memory or host
// memory) through stages: gpu_direct is one DMA, the bounce paths are two or three.
// Paths are chosen by name from the scenario and registered with IOWALL_REGISTER_PATH.
#pragma once
#include <array>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "sim/config/topology.hpp"
#include "sim/core/block_storage.hpp"
#include "sim/core/inline_function.hpp"
#include "sim/core/pointer_triple.hpp"
#include "sim/core/route.hpp"

namespace iowall {

struct IoRequest {
  Bytes size;
  Bytes offset;
  bool write = false;
  BlockStorage* storage = nullptr;
  Device* target = nullptr;  // a GPU, or host memory (a dram device)
  int thread = -1;           // the workload thread that issued it (-1: none)
  // Remote I/O only (local paths ignore both). cached: the storage server serves the
  // I/O from its memory without the drive: a read's data already sits in its page
  // cache, or a write is kept there (an NFS UNSTABLE WRITE, made durable by a later
  // COMMIT). server_local: a write whose data already sits in the server's memory (a
  // COMMIT writing back what UNSTABLE WRITEs left there): only the command and its
  // reply cross the network, and the server writes the drive.
  // shares_thread: a part of a server command whose service thread another part holds
  // (a COMMIT's writes to its other drives: one nfsd thread runs the whole COMMIT).
  // server_syncs: the server makes the write durable before it replies, an fsync of the
  // file on its store (nfsd's RWF_SYNC for a FILE_SYNC WRITE, vfs_fsync_range for a COMMIT).
  bool cached = false;
  bool server_local = false;
  bool shares_thread = false;
  bool server_syncs = false;
  // An NVMe-oF Flush command (remote paths only): no data moves; the target flushes the
  // store with `flush_scope` and replies.
  bool flush = false;
  SyncScope flush_scope = SyncScope::data;
  // Remote I/O only: which of the client's connections to the server carries it (an NFS
  // mount's nconnect transports, 0 to nconnect - 1); a transport that receives one call
  // per connection at a time (CommonConfig::receive) keys that on it.
  int connection = 0;
  // A read into host memory never touched before: CPU time the I/O's thread spends
  // faulting in (and the kernel zeroing) its pages before data lands there
  // (models/host/host_memory.hpp). Zero: the buffer's pages are mapped.
  Time user_pages_cost{};
  // The host buffers the issuer cycles its I/Os through (BlockIo::footprint): an O_DIRECT
  // program's own buffers, reused; 0: fresh or not known. Paths through the page cache
  // drop it (the cache's pages are fresh).
  Bytes buffer_footprint{};
  // Where a read's data ends: in the user's buffer (read(), O_DIRECT), or in the page
  // cache only, for a program that maps the file (paths with a page cache only:
  // DataPath::maps_files): page_cache, a view made of the range (its first page touched:
  // the kernel brings in its start at once), or page_cache_stream, the range touched page
  // by page in order (the kernel's readahead running ahead of the touches).
  enum class Into : std::uint8_t { user_buffer, page_cache, page_cache_stream };
  Into into = Into::user_buffer;
  // A write's file blocks: allocated (an overwrite of a laid-out file, as fio's and iowall
  // measure's write sweeps make) or new_file (a file the writes create and extend, as a
  // framework's checkpoint: a file system with delayed allocation, ext4's, allocates the
  // blocks when writeback sends the pages; paths with a page cache charge it there).
  enum class Blocks : std::uint8_t { allocated, new_file };
  Blocks blocks = Blocks::allocated;
  // Reads through a page cache: where the file the read is in ends on its store (the
  // kernel's readahead never reads past i_size); 0: the file runs to the store's end.
  Bytes file_end{};
};

// What a path needs from the simulation it runs in.
struct PathEnv {
  PathEnv(SimContext& c, Topology& t, RouteMover& m, std::string f, std::string p)
      : ctx(c), topology(t), mover(m), file(std::move(f)), pointer(std::move(p)) {}
  SimContext& ctx;
  Topology& topology;
  RouteMover& mover;
  std::string file;     // scenario file, for errors
  std::string pointer;  // JSON pointer of the path's entry

  // The device of `model` nearest to `from` (fewest hops), found once per (device,
  // model): the search walks the topology graph, and paths ask for it on every I/O.
  // `model` is a string literal: its address stands for it in the cache (a path's
  // cpu_near and dram_near, models/paths/path_base.hpp).
  Device& nearest(const Device& from, const char* model);
  // Route from `from` to `to`, with the endpoints' access hops (Device::endpoint_hop:
  // host memory's) appended for `to` and prepended for `from`; cached for the
  // simulation's life.
  const Route& route(const Device& from, const Device& to, const std::vector<Hop>& prefix = {});

private:
  // Both are looked up on every I/O: hashed on the pointers.
  std::unordered_map<PointerTriple, std::unique_ptr<Route>, HashPointers> routes_;
  // The routes asked for last, direct-mapped in front of the map: a path asks for the
  // same few on every I/O.
  struct RecentRoute {
    PointerTriple key{nullptr, nullptr, nullptr};
    const Route* route = nullptr;
  };
  std::array<RecentRoute, 32> recent_routes_{};
  std::unordered_map<PointerTriple, Device*, HashPointers> nearest_;
};

class DataPath {
public:
  using Done = InlineFunction<void()>;
  virtual ~DataPath() = default;
  virtual void submit(const IoRequest& io, Done done) = 0;
  // fsync()/fdatasync() of the file this path wrote on `storage`: `done` once every write
  // submitted to it before is durable. The default suits paths that write around the page
  // cache (O_DIRECT, cuFile): the device's volatile cache is flushed. A buffered path
  // writes back its dirty pages first.
  // `scope`: fsync (file) or fdatasync and O_DSYNC (data).
  virtual void sync(BlockStorage& storage, Done done, SyncScope scope) { storage.flush(done, scope); }
  // The path moves bytes between storage and GPU memory itself (cuFile): a checkpoint
  // hands it the GPU's buffers and makes no host copy of its own.
  virtual bool takes_gpu_buffers() const { return false; }
  // Whether its reads can stop in a page cache (IoRequest::Into::page_cache): a file
  // mapped and read through the mapping.
  virtual bool maps_files() const { return false; }
  // CPU time the workload thread `thread` has spent inside the path so far (its system
  // calls, its copies); zero for paths that do not keep it.
  virtual Time thread_cpu(int thread) const { return {}; }
  // A remark for the output ("took the compat path: I/O size not 4 KiB aligned").
  virtual std::string note() const { return {}; }
};

}  // namespace iowall
