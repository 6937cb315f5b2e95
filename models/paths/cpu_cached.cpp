// cpu_cached: buffered I/O through the page cache, then cudaMemcpy from pageable
// memory. A read misses or hits the page cache; the data is copied by the calling
// thread from the page cache into the user buffer, then the CUDA driver copies it again
// (in the caller too) into its pinned staging buffer before the copy engine moves it to
// the GPU: host memory is crossed six times per byte (DMA in, two copies of two
// crossings, DMA out). With "user_buffer": "pinned" the read lands in page-locked memory
// (gdsio's CPU_CACHED_GPU) and the copy engine takes it from there: no driver staging
// copy. With a host-memory target there is no GPU leg: the read ends in the user buffer
// (fio's buffered reads, iowall measure -x cpu_cached). Writes run the other way and
// return once the data is copied into the page cache (the writer also pays write_page_cost
// for each page it fills: allocating, inserting and dirtying it) and balance_dirty_pages
// lets the writer go on: the host memory's dirty pages (models/host/dirty_pages.hpp,
// thresholds from vm.dirty_*) are written back by the device's flusher
// (models/host/storage_writeback.hpp), and fsync (sync) writes back what is dirty and
// flushes the drive. Submitted through
// io_uring ("buffered_writes": "io_wq"), a buffered write is punted to the ring's io-wq
// worker: the writes of one file run there one at a time (hashed by inode; the file's lock
// serializes writers of one file across rings too), a handoff apart from their submission.
#include <deque>
#include <map>

#include <fmt/format.h>

#include "models/paths/host_copy.hpp"
#include "models/host/dirty_pages.hpp"
#include "models/host/page_cache.hpp"
#include "models/host/storage_writeback.hpp"
#include "sim/config/registry.hpp"
#include "models/paths/path_base.hpp"

namespace iowall {

class CpuCachedPath final : public PathBase {
public:
  struct Config : ParamSet {
    using ParamSet::ParamSet;
    IOWALL_PARAM(Time, syscall_cost, "2 us", "CPU time of one read()/write() system call through the VFS",
                 "order of magnitude of Linux buffered I/O per call; calibrate with `iowall calibrate`");
    IOWALL_PARAM(Time, copy_launch_cost, "3 us", "CPU time to launch and synchronize one cudaMemcpy", "as cpu_gpu");
    IOWALL_PARAM(Bytes, page_cache, "256 GiB", "memory the page cache may use", "assumed: a share of host DRAM");
    // Dirty page-cache data (Documentation/admin-guide/sysctl/vm.rst gives each default).
    IOWALL_PARAM_NUMBER(dirty_ratio, 20, 0, 100, "vm.dirty_ratio: percent of dirtyable memory at which writers "
                        "wait for writeback", "Linux Documentation/admin-guide/sysctl/vm.rst (default 20)");
    IOWALL_PARAM_NUMBER(dirty_background_ratio, 10, 0, 100, "vm.dirty_background_ratio: percent of dirtyable "
                        "memory past which the flusher writes back", "Linux Documentation/admin-guide/sysctl/vm.rst "
                        "(default 10)");
    IOWALL_PARAM(Bytes, dirty_bytes, "0 B", "vm.dirty_bytes: the hard threshold in bytes; wins over dirty_ratio when "
                 "set", "Linux Documentation/admin-guide/sysctl/vm.rst (default 0: unset)");
    IOWALL_PARAM(Bytes, dirty_background_bytes, "0 B", "vm.dirty_background_bytes: the background threshold in bytes; "
                 "wins over dirty_background_ratio when set", "Linux Documentation/admin-guide/sysctl/vm.rst (default 0)");
    IOWALL_PARAM(Time, dirty_expire, "30 s", "vm.dirty_expire_centisecs: dirty data older than this is written back",
                 "Linux Documentation/admin-guide/sysctl/vm.rst (default 3000 centisecs)");
    IOWALL_PARAM(Time, dirty_writeback_interval, "5 s", "vm.dirty_writeback_centisecs: the flusher's wake-up period",
                 "Linux Documentation/admin-guide/sysctl/vm.rst (default 500 centisecs)");
    IOWALL_PARAM(Bytes, dirtyable_memory, "0 B", "free and reclaimable memory the ratios apply to; 0: the host "
                 "memory's capacity", "mm/page-writeback.c global_dirtyable_memory(); MemAvailable in /proc/meminfo");
    IOWALL_PARAM(Bytes, writeback_request, "1 MiB", "one writeback request (the block queue's max_sectors_kb)",
                 "Linux block layer: max_sectors_kb (1280 KiB on many NVMe drives, 4 MiB on virtio-blk)");
    IOWALL_PARAM_INT(writeback_depth, 32, 1, 4096, "writeback requests in flight per device",
                     "assumed: the block queue's nr_requests bounds them");
    IOWALL_PARAM(Bandwidth, flusher_bandwidth, "10 GB/s", "the flusher thread's rate of turning dirty pages into "
                 "writeback requests (page lookup, block mapping, bio building; one thread per device)",
                 "assumed (about 0.4 us per 4 KiB page); `iowall calibrate` fits it from buffered writes until "
                 "durable");
    IOWALL_PARAM(Bytes, async_readahead, "0 B",
                 "how far past a read the kernel reads on its own, in windows of that read's size, while the reader "
                 "copies (0: storage is read only when a read() asks for it)",
                 "Linux mm/readahead.c: a sequential read() that reaches the PG_readahead mark starts "
                 "page_cache_async_ra() for the next window, as large as the reads (up to the queue's max_sectors_kb) "
                 "and does not wait for it");
    IOWALL_PARAM(Bytes, block, "128 KiB", "page-cache bookkeeping granularity (readahead window)", "Linux default readahead");
    IOWALL_PARAM(Time, write_page_cost, "0.6 us",
                 "CPU time a buffered write spends per 4 KiB page it fills beyond copying the bytes: allocating the "
                 "page-cache page, charging it, inserting it into the file's mapping and LRU, the file system's "
                 "write_begin/write_end (ext4's delayed-allocation reservation) and dirtying it",
                 "scripts/probe-page-cache.py (write() of GiBs from a cold source less a memcpy of the same bytes, per "
                 "page): 0.63 us on an H200 VM (4 GiB, median of 3: reports/calibration/gpu-machine/fourth-h200-vm/"
                 "pagecache) and 0.56 us on a 2-vCPU build VM (1 GiB, median of 3: reports/calibration/cpu-machine/"
                 "page-cache); `iowall calibrate` sets 0, its fitted syscall_cost holding it");
    IOWALL_PARAM_CHOICE(user_buffer, "pageable", (std::vector<std::string>{"pageable", "pinned"}),
                        "the application's buffer: pageable (cudaMemcpy stages it through the driver's pinned "
                        "buffer, a second copy) or pinned (cudaHostAlloc/cudaHostRegister: the copy engine reads it)",
                        "CUDA programming guide, page-locked host memory");
    IOWALL_PARAM_CHOICE(cache_at_start, "cold", (std::vector<std::string>{"cold", "warm"}),
                        "the page cache when the run starts: cold (nothing cached) or warm (every block of the "
                        "target resident, as a file just written or read before; blocks are missed once evicted)",
                        "fio lays out its file with buffered writes (warm unless --invalidate); iowall measure "
                        "drops its fill and records the share cached (page_cache_resident_at_start)");
    IOWALL_PARAM_CHOICE(buffered_writes, "inline", (std::vector<std::string>{"inline", "io_wq"}),
                        "how a buffered write reaches the page cache: inline (write() in the calling thread, psync) "
                        "or io_wq (io_uring punts it to its io-wq worker: the writes of one file run there one at a "
                        "time, io_wq_handoff after their submission, while the submitter goes on)",
                        "io_uring/io_uring.c io_prep_async_work: a write to a regular file is hashed by its inode "
                        "and io-wq runs work of one hash one at a time; fs/ext4/file.c ext4_buffered_write_iter "
                        "holds the inode lock over the copy; S. Roesch, 'Support async buffered writes for "
                        "io-uring' (2022): buffered writes otherwise go only through the io workers");
    IOWALL_PARAM(Time, io_wq_handoff, "10 us", "io_wq: from a write's submission to its completion reaped, beside "
                 "the worker's own time (io-wq enqueue and worker wake-up, the CQE and the submitter's wake-up); "
                 "a latency, not a serial step: hidden once several writes are in flight",
                 "assumed: two wake-ups; `iowall calibrate` fits it (a writer's QD1 time per write minus the "
                 "file's serial time per write at a deeper queue)");
    bool pinned_user_buffer = user_buffer == "pinned";
    bool io_wq_writes = buffered_writes == "io_wq";
    bool warm_cache = cache_at_start == "warm";
  };
  CpuCachedPath(const Params& p, PathEnv& env)
      : PathBase(env), config_(p), cache_(config_.page_cache, config_.block, config_.warm_cache) {}

  void submit(const IoRequest& r, Done done) override {
    auto* gpu = dynamic_cast<Gpu*>(r.target);
    auto* host = dynamic_cast<Dram*>(r.target);
    if (!gpu && !host)
      throw InputError(env_.file, env_.pointer, "cpu_cached needs a GPU or host-memory target, not " + r.target->name());
    Dram& dram = gpu ? dram_near(*gpu) : *host;
    auto& copy = memcpy_[&dram];
    if (!copy) copy = std::make_unique<Route>(memcpy_route(cpu_near(dram), dram));
    InFlight f{r, done, &cpu_near(dram), nullptr, nullptr};
    f.first = r.write ? &env_.route(dram, r.storage->device()) : &env_.route(r.storage->device(), dram);
    if (gpu) f.second = &gpu_copy_route(env_, *gpu, dram, !r.write);
    const std::uint32_t id = begin(f);
    if (copy_of_.size() <= id) copy_of_.resize(id + 1, nullptr);
    copy_of_[id] = copy.get();
    if (r.write) {
      write_from_gpu(id);
    } else {
      thread_spend(id, config_.syscall_cost, [this, id] { read_into_cache(id); });
    }
  }

  // Reads: the page cache's hits and misses; writes: what they dirtied and how long the
  // writers were held at the dirty threshold.
  std::string note() const override {
    std::string s;
    if (cache_.hits() + cache_.misses() > 0 || !pages_)
      s = fmt::format("page cache: {} hits, {} misses", cache_.hits(), cache_.misses());
    if (pages_)
      s += fmt::format("{}page cache: {} dirtied, writers throttled {:.3f} s (dirty threshold {})", s.empty() ? "" : "; ",
                       to_string(dirtied_), pages_->throttled().seconds(), to_string(pages_->threshold()));
    return s;
  }

private:
  // Reads: storage -> page cache (unless cached) -> user buffer -> staging -> GPU.
  void read_into_cache(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    if (config_.async_readahead.is_positive()) read_ahead(r);
    if (cache_.lookup(r.storage, r.offset, r.size)) {
      copy_to_user(id);
      return;
    }
    // Its window is already being read ahead: wait for it.
    const Window w = readahead(r);
    if (const auto it = ahead_.find(AheadKey{r.storage, w.start}); it != ahead_.end() && it->second.size >= w.size) {
      it->second.waiters.push_back(id);
      return;
    }
    // A miss reads the whole readahead window around the request from storage, through
    // the drive's queues like any block-layer read.
    storage_part(r, w.start, w.size, *io(id).first, [this, id] {
      const IoRequest& q = io(id).io;
      const Window w = readahead(q);
      cache_.insert(q.storage, w.start, w.size);
      copy_to_user(id);
    });
  }
  // The kernel's asynchronous readahead: the windows after `r` up to async_readahead past
  // its end, each the size of r's window, read from storage unless cached or on the way
  // (and not past the device's end); no thread waits for them.
  void read_ahead(const IoRequest& r) {
    const Window w = readahead(r);
    const Bytes capacity = r.storage->limits().capacity;
    for (Bytes start = w.start + w.size; start < w.start + w.size + config_.async_readahead; start += w.size) {
      if (capacity.is_positive() && start + w.size > capacity) return;
      const AheadKey key{r.storage, start};
      if (ahead_.count(key) || cache_.resident(r.storage, start, w.size)) continue;
      ahead_.emplace(key, Ahead{w.size, {}});
      IoRequest q = r;
      q.offset = start;
      q.size = w.size;
      storage_part(q, q.offset, q.size, *io_first_of(r), [this, key] {
        const auto it = ahead_.find(key);
        cache_.insert(key.storage, key.start, it->second.size);
        const std::vector<std::uint32_t> waiters = std::move(it->second.waiters);
        ahead_.erase(it);
        for (std::uint32_t id : waiters) copy_to_user(id);
      });
    }
  }
  // write_page_cost for the 4 KiB pages a write of `bytes` fills.
  Time pages_cost(Bytes bytes) const { return config_.write_page_cost * ceil_div(bytes, Bytes(4096)); }
  const Route* io_first_of(const IoRequest& r) {
    Dram& dram = dram_of(r);
    return &env_.route(r.storage->device(), dram);
  }
  Dram& dram_of(const IoRequest& r) {
    auto* gpu = dynamic_cast<Gpu*>(r.target);
    return gpu ? dram_near(*gpu) : *static_cast<Dram*>(r.target);
  }
  // The readahead blocks that cover a request.
  struct Window {
    Bytes start, size;
  };
  Window readahead(const IoRequest& r) const {
    const Bytes start = round_down(r.offset, config_.block);
    return {start, round_up(r.offset + r.size, config_.block) - start};
  }
  void copy_to_user(std::uint32_t id) {
    // A user buffer never touched before faults its pages in on the way (read() copies
    // into it in the caller).
    const Time touch = io(id).io.user_pages_cost;
    if (touch.is_positive()) return thread_spend(id, touch, [this, id] { copy_to_mapped_user(id); });
    copy_to_mapped_user(id);
  }
  void copy_to_mapped_user(std::uint32_t id) {
    thread_send(id, *copy_of_[id], io(id).io.size, [this, id] {
      if (!io(id).second) return finish(id);  // a host-memory target: the data is there
      thread_spend(id, config_.copy_launch_cost, [this, id] {
        if (config_.pinned_user_buffer) return to_gpu(id);
        // The driver stages pageable memory through its pinned buffer: a second copy.
        thread_send(id, *copy_of_[id], io(id).io.size, [this, id] { to_gpu(id); });
      });
    });
  }
  void to_gpu(std::uint32_t id) {
    env_.mover.send(*io(id).second, io(id).io.size, [this, id] { finish(id); }, DmaKind::read);
  }
  // Writes: GPU -> staging -> user buffer -> page cache; writeback to storage later.
  void write_from_gpu(std::uint32_t id) {
    if (!io(id).second) return write_syscall(id);  // a host-memory source
    thread_spend(id, config_.copy_launch_cost, [this, id] {
      env_.mover.send(*io(id).second, io(id).io.size, [this, id] {
        if (config_.pinned_user_buffer) return write_syscall(id);
        thread_send(id, *copy_of_[id], io(id).io.size, [this, id] { write_syscall(id); });
      });
    });
  }
  void write_syscall(std::uint32_t id) {
    if (config_.io_wq_writes) {
      env_.ctx.in(config_.io_wq_handoff, [this, id] { to_file_writer(id); });
      return;
    }
    thread_spend(id, config_.syscall_cost + pages_cost(io(id).io.size), [this, id] {
      thread_send(id, *copy_of_[id], io(id).io.size, [this, id] { write_back(id); });
    });
  }
  // The copy is in the page cache: the pages are dirty, and balance_dirty_pages decides
  // when the writer goes on.
  // io_wq: the file's writes one at a time on a worker (its CPU, the copy, the dirty-page
  // balance), each after its handoff.
  struct FileWriter {
    std::deque<std::uint32_t> waiting;
    bool busy = false;
  };
  // `writer`: the io_wq worker that goes on with the file's next write once this one is done.
  void write_back(std::uint32_t id, FileWriter* writer = nullptr) {
    const IoRequest& r = io(id).io;
    dirtied_ += r.size;
    writeback_of(*r.storage, *io(id).cpu).dirtied(sink_of(*r.storage), r.size, [this, id, writer] {
      finish(id);
      if (writer) next_file_write(*writer);
    });
  }
  void to_file_writer(std::uint32_t id) {
    FileWriter& w = writers_[io(id).io.storage];
    w.waiting.push_back(id);
    if (!w.busy) next_file_write(w);
  }
  void next_file_write(FileWriter& w) {
    if (w.waiting.empty()) {
      w.busy = false;
      return;
    }
    w.busy = true;
    const std::uint32_t id = w.waiting.front();
    w.waiting.pop_front();
    FileWriter* writer = &w;
    io(id).cpu->spend(config_.syscall_cost + pages_cost(io(id).io.size), [this, id, writer] {
      env_.mover.send(*copy_of_[id], io(id).io.size, [this, id, writer] { write_back(id, writer); });
    });
  }

public:
  void sync(BlockStorage& storage, Done done, SyncScope scope) override {
    auto it = sinks_.find(&storage);
    if (it == sinks_.end()) return storage.flush(done, scope);  // nothing written through this cache
    pages_->sync(*it->second, done, scope);
  }

private:
  // The host's dirty-page accounting, made on the first write (a read-only run registers
  // no writeback statistics).
  DirtyPages& writeback_of(BlockStorage& storage, CpuSocket&) {
    if (!pages_) {
      Dram& dram = dram_near(storage.device());
      DirtyPagesConfig c;
      c.dirtyable_memory = config_.dirtyable_memory.is_positive() ? config_.dirtyable_memory : dram.capacity;
      c.ratio = config_.dirty_ratio / 100;
      c.background_ratio = config_.dirty_background_ratio / 100;
      c.bytes = config_.dirty_bytes;
      c.background_bytes = config_.dirty_background_bytes;
      c.expire = config_.dirty_expire;
      c.writeback_interval = config_.dirty_writeback_interval;
      c.request = config_.writeback_request;
      c.depth = config_.writeback_depth;
      pages_ = std::make_unique<DirtyPages>(env_.ctx, dram.name() + "/dirty_pages", c);
    }
    return *pages_;
  }
  StorageWriteback& sink_of(BlockStorage& storage) {
    auto& slot = sinks_[&storage];
    if (!slot) {
      Dram& dram = dram_near(storage.device());
      slot = std::make_unique<StorageWriteback>(env_.ctx, storage, env_.route(dram, storage.device()), env_.mover,
                                                host_queues(storage.device()), config_.flusher_bandwidth);
    }
    return *slot;
  }

  Config config_;
  PageCache cache_;
  // Windows being read ahead, by device and start: their size and the reads waiting for them.
  struct AheadKey {
    const BlockStorage* storage;
    Bytes start;
    bool operator<(const AheadKey& o) const { return storage != o.storage ? storage < o.storage : start < o.start; }
  };
  struct Ahead {
    Bytes size;
    std::vector<std::uint32_t> waiters;
  };
  std::map<AheadKey, Ahead> ahead_;
  std::map<const Dram*, std::unique_ptr<Route>> memcpy_;  // one per host memory
  std::vector<const Route*> copy_of_;                     // per in-flight I/O
  std::unique_ptr<DirtyPages> pages_;
  Bytes dirtied_;  // bytes written into the page cache
  std::map<const BlockStorage*, std::unique_ptr<StorageWriteback>> sinks_;
  std::map<const BlockStorage*, FileWriter> writers_;  // io_wq: one per file (device)
};

IOWALL_REGISTER_PATH(CpuCachedPath, "cpu_cached",
                     "buffered I/O through the page cache into host memory, then (to a GPU) cudaMemcpy "
                     "from pageable memory");

}  // namespace iowall
