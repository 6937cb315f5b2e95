// cpu_cached: buffered I/O through the page cache, then cudaMemcpy from pageable
// memory. A read finds its pages in the page cache or has them read from storage by
// Linux's readahead (models/host/cached_reads.hpp over readahead.hpp: a window of
// read_ahead around a miss, the next window started asynchronously when the reader
// reaches the marked page, each split into requests of at most max_sectors), waiting for
// each piece as it needs it; the data is copied by the calling thread from the page cache
// into the user buffer as its pages arrive, then the CUDA driver copies it again
// (in the caller too) into its pinned staging buffer before the copy engine moves it to
// the GPU: host memory is crossed six times per byte (DMA in, two copies of two
// crossings, DMA out). With "user_buffer": "pinned" the read lands in page-locked memory
// (gdsio's CPU_CACHED_GPU) and the copy engine takes it from there: no driver staging
// copy. With a host-memory target there is no GPU leg: the read ends in the user buffer
// (fio's buffered reads, iowall measure -x cpu_cached); a view of a mapped file's range
// (IoRequest::Into::page_cache, a loader's tensor) brings in its first 2 x read_ahead at
// once, outside the readahead stream, its pages allocated by the thread (view_page_cost)
// before its requests go out, and ends when they are cached: no copy; a range touched in
// order through a mapping (page_cache_stream) is read by readahead as read() would be, and
// ends when cached, no copy either. Writes run the other way and
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

#include "models/paths/cpu_cached_config.hpp"
#include "models/paths/host_copy.hpp"
#include "models/host/dirty_pages.hpp"
#include "models/host/page_cache.hpp"
#include "models/host/cached_reads.hpp"
#include "models/host/storage_writeback.hpp"
#include "sim/config/registry.hpp"
#include "models/paths/path_base.hpp"

namespace iowall {

class CpuCachedPath final : public PathBase {
public:
  static constexpr Bytes kPage = CachedReads::kPage;
  using Config = CpuCachedConfig;
  CpuCachedPath(const Params& p, PathEnv& env)
      : PathBase(env), config_(p), cache_(config_.page_cache, config_.block, config_.warm_cache) {
    // The block layer takes no request smaller than a page (blk_validate_limits).
    if (config_.max_sectors < kPage)
      throw InputError(env.file, env.pointer + "/max_sectors",
                       "\"" + to_string(config_.max_sectors) + "\" is less than a page (4 KiB)");
  }

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
    if (copy_of_.size() <= id) {
      copy_of_.resize(id + 1, nullptr);
      cursor_.resize(id + 1);
      stream_.resize(id + 1, nullptr);
    }
    copy_of_[id] = copy.get();
    if (r.write) {
      write_from_gpu(id);
    } else if (r.into != IoRequest::Into::user_buffer) {
      // A mapped file's range: no read() call. (Never completed inside submit: a cached
      // range would call `done` before its caller is through.)
      env_.ctx.in(Time{}, [this, id] {
        if (io(id).io.into == IoRequest::Into::page_cache) return view_range(id);
        read_into_cache(id);
      });
    } else {
      thread_spend(id, config_.syscall_cost, [this, id] { read_into_cache(id); });
    }
  }

  bool maps_files() const override { return true; }

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
  // Reads: storage -> page cache (readahead, models/host/cached_reads.hpp) -> user buffer
  // -> staging -> GPU.
  void read_into_cache(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    CachedReads::Stream& s =
        reads_.stream(*r.storage, r.thread, config_.readahead_limits(r.storage->limits()), r.file_end);
    stream_[id] = &s;
    cursor_[id] = r.offset;
    // Every page cached and no mark on the way: one copy (the common warm read).
    const bool hit = cache_.lookup(r.storage, r.offset, r.size);  // counts the read a hit or a miss
    if (hit && !s.marked(r.offset, r.offset + r.size)) return copy_to_user(id, r.offset + r.size);
    read_step(id);
  }
  // A view of a mapped file's range (IoRequest::Into::page_cache, a loader's tensor: one
  // major fault each, measured to bring in the range's first 2 x read_ahead, all of a
  // smaller tensor, at once): the thread allocates the pages not cached (view_page_cost
  // each), sends them in requests of at most max_sectors, and waits until every one is
  // cached. No readahead window moves and nothing else of the file is touched, so the disk
  // drains between views; what lies past the window waits for the range to be touched.
  Bytes view_end(const IoRequest& r) const {
    return r.offset + std::min(r.size, config_.read_ahead * 2);
  }
  void view_range(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    cursor_[id] = r.offset;
    cache_.lookup(r.storage, r.offset, r.size);  // counts the range a hit or a miss
    const i64 pages = reads_.missing_pages(*r.storage, r.offset, view_end(r));
    if (pages == 0) return view_step(id);
    thread_spend(id, config_.view_page_cost * pages, [this, id] {
      const IoRequest& q = io(id).io;
      reads_.fill(*q.storage, q.offset, view_end(q), config_.readahead_limits(q.storage->limits()).io_pages,
                  [this, id](Bytes offset, Bytes size) { read_piece(id, offset, size); });
      view_step(id);
    });
  }
  void view_step(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    const Bytes end = view_end(r);
    while (cursor_[id] < end) {
      const CachedReads::Step step = reads_.wait(id, *r.storage, cursor_[id], end);
      if (step.wait) return;  // read_piece's completion comes back through read_step
      cursor_[id] = step.limit;
    }
    finish(id);
  }
  // The read's next pages: copied once cached, waited for while being read.
  void read_step(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    if (r.into == IoRequest::Into::page_cache) return view_step(id);  // a view waited for a request
    const Bytes cur = cursor_[id], end = r.offset + r.size;
    CachedReads::Stream& s = *stream_[id];
    if (cur >= end) {
      s.ra.read_done(ceil_div(end, kPage));
      return user_copied(id);
    }
    const CachedReads::Step step =
        reads_.next(id, *r.storage, s, cur, end, [this, id](Bytes offset, Bytes size) { read_piece(id, offset, size); });
    if (!step.wait) copy_to_user(id, step.limit);
  }
  // One request of a readahead window, for read `id`'s file, along that read's route.
  void read_piece(std::uint32_t id, Bytes offset, Bytes size) {
    IoRequest q = io(id).io;
    const BlockStorage* storage = q.storage;
    q.offset = offset;
    q.size = size;
    q.buffer_footprint = Bytes(0);  // the data lands in the page cache's fresh pages
    storage_part(q, offset, size, *io(id).first, [this, storage, offset] {
      for (std::uint32_t waiting : reads_.done(storage, offset)) read_step(waiting);
    });
  }
  // write_page_cost for the 4 KiB pages a write of `bytes` fills.
  Time pages_cost(Bytes bytes) const { return config_.write_page_cost * ceil_div(bytes, kPage); }
  // The read's bytes up to `limit` copied from the page cache into the user buffer, then
  // its next step: a user buffer never touched before faults its share of pages in on the
  // way (read() copies into it in the caller).
  void copy_to_user(std::uint32_t id, Bytes limit) {
    const IoRequest& r = io(id).io;
    if (r.into == IoRequest::Into::page_cache_stream) {  // touched through a mapping: the pages are the data
      cursor_[id] = limit;
      return read_step(id);
    }
    const Time touch = scale(r.user_pages_cost, (limit - cursor_[id]).n, r.size.n);
    if (touch.is_positive()) return thread_spend(id, touch, [this, id, limit] { copy_mapped(id, limit); });
    copy_mapped(id, limit);
  }
  void copy_mapped(std::uint32_t id, Bytes limit) {
    thread_send(id, *copy_of_[id], limit - cursor_[id], [this, id, limit] {
      cursor_[id] = limit;
      read_step(id);
    });
  }
  // The whole read is in the user buffer: to the GPU if that is where it goes.
  void user_copied(std::uint32_t id) {
    // A host-memory target, or pages touched through a mapping: the data is there.
    if (!io(id).second || io(id).io.into == IoRequest::Into::page_cache_stream) return finish(id);
    thread_spend(id, config_.copy_launch_cost, [this, id] {
      if (config_.pinned_user_buffer) return to_gpu(id);
      // The driver stages pageable memory through its pinned buffer: a second copy.
      thread_send(id, *copy_of_[id], io(id).io.size, [this, id] { to_gpu(id); });
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
    StorageWriteback& sink = sink_of(*r.storage);
    if (r.blocks == IoRequest::Blocks::new_file) sink.dirtied_new(r.size);  // before any writeback it starts
    writeback_of(*r.storage, *io(id).cpu).dirtied(sink, r.size, [this, id, writer] {
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
                                                host_queues(storage.device()), config_.flusher_bandwidth,
                                                config_.new_block_cost);
    }
    return *slot;
  }

  Config config_;
  PageCache cache_;
  CachedReads reads_{cache_};                // the page cache's read side
  std::vector<Bytes> cursor_;                // per in-flight read: its next byte
  std::vector<CachedReads::Stream*> stream_;  // and its file's readahead state
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
