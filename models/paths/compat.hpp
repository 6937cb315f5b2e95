// compat: cuFile's compatibility mode. Without GDS (no nvidia-fs or P2P DMA), or for
// an I/O whose offset, size or buffer is not 4 KiB aligned, cuFile serves the I/O with
// POSIX reads into its own pinned bounce buffers (a pool of 1 MiB slabs) on a few I/O
// threads, then copies each buffer to the GPU. Each chunk holds one thread from its
// read to the end of its copy, so the thread count bounds what is in flight.
#pragma once
#include <map>
#include <memory>

#include "models/paths/host_copy.hpp"
#include "sim/core/token_pool.hpp"
#include "models/paths/path_base.hpp"

namespace iowall {

class CompatPath final : public PathBase {
public:
  struct Config : ParamSet {
    using ParamSet::ParamSet;
    IOWALL_PARAM_INT(io_threads, 4, 1, 256, "cuFile POSIX I/O threads (execution.max_io_threads)",
                     "cufile.json default, CUDA 13.0 cuFile 1.15.1 (figures.md)");
    IOWALL_PARAM(Bytes, bounce_size, "1 MiB", "bounce buffer (POSIX pool slab) per chunk",
                 "cufile.json posix pool 1 MiB x 64 (figures.md)");
    IOWALL_PARAM(Time, chunk_cost, "6 us", "CPU time per chunk: cuFile bookkeeping plus the pread/pwrite system call",
                 "order of magnitude; calibrate with `iowall calibrate` (compat overhead fit)");
    IOWALL_PARAM(Time, copy_launch_cost, "3 us", "CPU time to launch and synchronize one cudaMemcpy", "as cpu_gpu");
  };
  CompatPath(const Params& p, PathEnv& env) : PathBase(env), config_(p) {}
  bool takes_gpu_buffers() const override { return true; }

  void submit(const IoRequest& r, Done done) override {
    auto* gpu = dynamic_cast<Gpu*>(r.target);
    if (!gpu) throw InputError(env_.file, env_.pointer, "compat needs a GPU target, not " + r.target->name());
    Dram& dram = dram_near(*gpu);
    InFlight f{r, done, &cpu_near(dram), nullptr, nullptr};
    f.first = r.write ? &env_.route(dram, r.storage->device()) : &env_.route(r.storage->device(), dram);
    f.second = &gpu_copy_route(env_, *gpu, dram, !r.write);
    const std::uint32_t id = begin(f);
    const i64 n = ceil_div(r.size, config_.bounce_size);
    if (left_.size() <= id) left_.resize(id + 1, 0);
    left_[id] = n;
    for (i64 c = 0; c < n; ++c) {
      const Bytes size = std::min(config_.bounce_size, r.size - config_.bounce_size * c);
      // One cuFile instance (process) per GPU, each with its own I/O threads.
      auto& pool = threads_[gpu];
      if (!pool) pool = std::make_unique<TokenPool>(static_cast<int>(config_.io_threads));
      const std::uint32_t chunk = chunks_.acquire({id, size, pool.get()});
      pool->acquire([this, chunk] { run_chunk(chunk); });
    }
  }

private:
  struct Chunk {
    std::uint32_t io;
    Bytes size;
    TokenPool* threads;
  };
  void run_chunk(std::uint32_t chunk) {
    const std::uint32_t id = chunks_[chunk].io;
    io(id).cpu->spend(config_.chunk_cost, [this, chunk, id] {
      const InFlight& f = io(id);
      const Bytes size = chunks_[chunk].size;
      if (f.io.write) {
        env_.mover.send(*f.second, size, [this, chunk, id] {
          const InFlight& g = io(id);
          auto after = [this, chunk] { chunk_done(chunk); };
          g.io.storage->write(chunks_[chunk].size, *g.first, env_.mover, after, unhinted_io());
        });
      } else {
        f.io.storage->read(size, *f.first, env_.mover, [this, chunk, id] {
          io(id).cpu->spend(config_.copy_launch_cost, [this, chunk, id] {
            env_.mover.send(*io(id).second, chunks_[chunk].size, [this, chunk] { chunk_done(chunk); }, DmaKind::read);
          });
        }, unhinted_io());
      }
    });
  }
  void chunk_done(std::uint32_t chunk) {
    const std::uint32_t id = chunks_[chunk].io;
    TokenPool* threads = chunks_[chunk].threads;
    chunks_.release(chunk);
    threads->release();
    if (--left_[id] == 0) finish(id);
  }

  Config config_;
  std::map<const Gpu*, std::unique_ptr<TokenPool>> threads_;
  SlotPool<Chunk> chunks_;
  std::vector<i64> left_;
};

}  // namespace iowall
