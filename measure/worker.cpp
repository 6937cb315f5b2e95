#include "measure/worker.hpp"
#include "measure/worker_loop.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <deque>
#include <memory>
#include <sys/resource.h>
#include <vector>

#include <fmt/format.h>

#include "measure/aligned_buffer.hpp"
#include "measure/engine.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/core/error.hpp"
#include "sim/core/rng.hpp"

namespace iowall::measure {

std::uint64_t monotonic_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

OpFeed::OpFeed(const WorkerContext& ctx, const ThreadResult& t, std::int64_t region_ops, std::uint64_t seed)
    : ctx_(ctx), io_(ctx.options->io_size.n), base_(t.region_offset), region_ops_(region_ops),
      random_(ctx.options->mode.random), read_pct_(ctx.options->mode.read_pct),
      by_time_(ctx.options->runtime.has_value()), rng_(seed, fmt::format("measure.t{}", t.index)) {}

void OpFeed::start(std::uint64_t t0_ns) {
  if (ctx_.options->runtime) deadline_ = t0_ns + static_cast<std::uint64_t>(ctx_.options->runtime->ps / 1000);
}

bool OpFeed::next(Op& op) {
  if (ctx_.abort->load(std::memory_order_relaxed) || stop_requested()) return false;
  if (deadline_ && monotonic_ns() >= deadline_) return false;
  if (!by_time_ && issued_ >= region_ops_) return false;
  const std::int64_t k = random_ ? static_cast<std::int64_t>(rng_.below(static_cast<std::uint64_t>(region_ops_)))
                                 : issued_ % region_ops_;  // sequential wraps around when timed
  op.offset = base_ + k * io_;
  op.write = read_pct_ == 0 || (read_pct_ < 100 && static_cast<int>(rng_.below(100)) >= read_pct_);
  ++issued_;
  return true;
}

void record(ThreadResult& out, bool write, std::uint64_t latency_ns, std::int64_t bytes) {
  DirectionStats& d = write ? out.write : out.read;
  d.clat_ns.add(latency_ns);
  ++d.ops;
  d.bytes += static_cast<std::uint64_t>(bytes);
}

void io_failed(bool write, std::int64_t len, std::int64_t offset, const std::string& why) {
  throw RunError(fmt::format("{} of {} bytes at offset {} failed: {}", write ? "write" : "read", len, offset, why));
}

namespace {

struct CpuTimes {
  double usr = 0, sys = 0;
  long ctx = 0;
};

CpuTimes thread_cpu() {
  rusage ru{};
  ::getrusage(RUSAGE_THREAD, &ru);
  return {static_cast<double>(ru.ru_utime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec) / 1e6,
          static_cast<double>(ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_stime.tv_usec) / 1e6,
          ru.ru_nvcsw + ru.ru_nivcsw};
}

// GPU memory and the CUDA objects of one thread, released in any case.
struct GpuResources {
  const CudaRuntime* rt = nullptr;
  void* device = nullptr;
  void* pinned = nullptr;  // a host buffer registered (page-locked) with cudaHostRegister
  std::vector<cudaStream_t> streams;
  const CuFileSession* cufile = nullptr;
  bool registered = false;
  ~GpuResources() {
    if (!rt) return;
    for (auto s : streams) rt->StreamSynchronize(s), rt->StreamDestroy(s);
    if (registered) cufile->api().BufDeregister(device);
    if (device) rt->Free(device);
    if (pinned) rt->HostUnregister(pinned);  // before the buffer itself is freed
  }
};

class Worker {
public:
  Worker(const WorkerContext& ctx, ThreadResult& out, std::int64_t region_ops, std::uint64_t seed)
      : ctx_(ctx), o_(*ctx.options), out_(out), feed_(ctx, out, region_ops, seed), io_(o_.io_size.n) {}

  // Allocation and registration, before the common start.
  void setup() {
    const TransferType x = o_.xfer;
    if (uses_gpu(x)) {
      gpu_.rt = ctx_.cuda;
      gpu_.rt->check(gpu_.rt->SetDevice(o_.gpu), "cudaSetDevice");
    }
    const bool staged = x == TransferType::cpu_gpu || x == TransferType::cpu_cached_gpu;
    if (x == TransferType::cpu_only || x == TransferType::cpu_cached || staged) {
      // Staged types keep one more buffer than I/Os in flight, so a copy to the GPU
      // overlaps the next read (two buffers per thread with psync).
      slots_ = staged ? o_.qd + 1 : o_.qd;
      host_ = AlignedBuffer(static_cast<std::size_t>(slots_ * io_), 4096, o_.buffer_pages);
      host_ptr_ = host_.data();
      fill_random(host_ptr_, static_cast<std::size_t>(slots_ * io_));
      out_.host_buffer_bytes = slots_ * io_;
      out_.host_buffer_huge_bytes =
          std::min<std::int64_t>(out_.host_buffer_bytes, static_cast<std::int64_t>(huge_page_bytes(host_ptr_)));
      out_.host_buffer_runs = physical_runs(host_ptr_, static_cast<std::size_t>(slots_ * io_));
    }
    if (staged) {
      // The same buffer as cpu_only (2 MiB pages unless --buffer-pages small), page-locked
      // for the copy engine. Pinned memory from cudaHostAlloc has 4 KiB pages: its O_DIRECT
      // reads reach a virtio disk as many DMA segments, so cpu_gpu would measure a different
      // storage request than cpu_only (see aligned_buffer.hpp).
      const auto bytes = static_cast<std::size_t>(slots_ * io_);
      if (!o_.pageable) {
        gpu_.rt->check(gpu_.rt->HostRegister(host_ptr_, bytes, kCudaHostRegisterDefault), "cudaHostRegister");
        gpu_.pinned = host_ptr_;
      }
      gpu_.rt->check(gpu_.rt->Malloc(&gpu_.device, bytes), "cudaMalloc");
      gpu_.rt->check(gpu_.rt->Memset(gpu_.device, 0xa5, bytes), "cudaMemset");
      for (int i = 0; i < slots_; ++i) {
        cudaStream_t s = nullptr;
        gpu_.rt->check(gpu_.rt->StreamCreate(&s), "cudaStreamCreate");
        gpu_.streams.push_back(s);
      }
    } else if (uses_cufile(x)) {  // gpu_direct, gpu_batch
      slots_ = x == TransferType::gpu_batch ? o_.qd : 1;
      const auto bytes = static_cast<std::size_t>(slots_ * io_);
      gpu_.rt->check(gpu_.rt->Malloc(&gpu_.device, bytes), "cudaMalloc");
      gpu_.rt->check(gpu_.rt->Memset(gpu_.device, 0xa5, bytes), "cudaMemset");
      gpu_.rt->check(gpu_.rt->DeviceSynchronize(), "cudaDeviceSynchronize");
      gpu_.cufile = ctx_.cufile;
      // Registered buffers let cuFile DMA straight into them; without, it stages
      // through its own buffers. gdsio registers by default, so do we.
      gpu_.registered = ctx_.cufile->api().BufRegister(gpu_.device, bytes, 0).err == cufile::kSuccess;
      out_.cufile_buffer_registered = gpu_.registered;
    }
    if (!uses_cufile(x))
      engine_ = o_.engine == Engine::io_uring ? make_io_uring_engine(ctx_.fd, o_.qd) : make_psync_engine(ctx_.fd);
  }

  void run() {
    const std::uint64_t t0 = ctx_.t0_ns->load();
    feed_.start(t0);
    SyncPolicy sync(o_.durability, ctx_.fd, out_, t0);
    const CpuTimes c0 = thread_cpu();
    out_.start_s = static_cast<double>(monotonic_ns() - t0) / 1e9;
    if (uses_cufile(o_.xfer)) {
      CuFileLoop loop{ctx_, out_, feed_, sync, gpu_.device, slots_, io_};
      o_.xfer == TransferType::gpu_batch ? run_cufile_batch(loop) : run_cufile_sync(loop);
    } else {
      run_host_engine(sync);
    }
    for (auto s : gpu_.streams) gpu_.rt->check(gpu_.rt->StreamSynchronize(s), "cudaStreamSynchronize");
    sync.finish();  // end_fsync is inside the thread's run, as fio's
    out_.end_s = static_cast<double>(monotonic_ns() - t0) / 1e9;
    const CpuTimes c1 = thread_cpu();
    out_.usr_s = c1.usr - c0.usr;
    out_.sys_s = c1.sys - c0.sys;
    out_.ctx_switches = c1.ctx - c0.ctx;
  }

private:
  void fill_random(char* p, std::size_t n) {
    Rng rng(o_.seed, fmt::format("measure.buf{}", out_.index));
    for (std::size_t i = 0; i + 8 <= n; i += 8) {
      const std::uint64_t v = rng.next();
      std::memcpy(p + i, &v, 8);
    }
  }

  char* slot_host(int s) const { return host_ptr_ + static_cast<std::int64_t>(s) * io_; }
  void* slot_device(int s) const { return static_cast<char*>(gpu_.device) + static_cast<std::int64_t>(s) * io_; }

  // cpu_only, cpu_cached, and the staged GPU types. A periodic sync waits until the
  // writes in flight have completed (fio's fsync=N with an asynchronous engine).
  void run_host_engine(SyncPolicy& sync) {
    const bool staged = !gpu_.streams.empty();  // cpu_gpu, cpu_cached_gpu
    const bool pure_write = o_.mode.read_pct == 0;
    const auto& rt = gpu_.rt;
    std::deque<int> free_slots;
    std::vector<Op> op_of(slots_);
    std::vector<std::uint64_t> issued_at(slots_);
    std::vector<bool> prefetched(slots_, false);
    for (int s = 0; s < slots_; ++s) free_slots.push_back(s);
    // For writes the data comes from the GPU: start each buffer's copy early.
    auto prefetch = [&](int s) {
      rt->check(rt->MemcpyAsync(slot_host(s), slot_device(s), static_cast<std::size_t>(io_), kDeviceToHost,
                                gpu_.streams[s]),
                "cudaMemcpyAsync (device to host)");
      prefetched[s] = true;
    };
    if (staged && pure_write)
      for (int s = 0; s < slots_; ++s) prefetch(s);

    std::vector<IoCompletion> done(static_cast<std::size_t>(o_.qd));
    int inflight = 0;
    bool more = true;
    while (true) {
      while (more && inflight < o_.qd && !free_slots.empty() && !sync.due()) {
        Op op;
        if (!feed_.next(op)) {
          more = false;
          break;
        }
        const int s = free_slots.front();
        free_slots.pop_front();
        if (staged) {
          if (op.write && !prefetched[s]) prefetch(s);
          // The slot's earlier copy (to the GPU after a read, or from it before a write) must be done.
          rt->check(rt->StreamSynchronize(gpu_.streams[s]), "cudaStreamSynchronize");
          prefetched[s] = false;
        }
        op_of[s] = op;
        issued_at[s] = monotonic_ns();
        if (op.write) sync.write_issued(issued_at[s]);
        engine_->submit({s, op.write, op.offset, static_cast<std::size_t>(io_), slot_host(s)});
        // Each I/O goes to the kernel on its own (fio's default, iodepth_batch_submit=1).
        // Handed over together, adjacent sequential reads are merged by the block layer
        // into one request (four 1 MiB reads at QD4 reached the disk as one 4 MiB read at
        // QD1), so the device would not see the I/O size and queue depth asked for.
        engine_->flush();
        ++inflight;
      }
      if (inflight == 0) {
        if (!sync.due()) break;
        sync.sync();
        continue;
      }
      const int n = engine_->wait(done.data(), static_cast<int>(done.size()));
      const std::uint64_t now = monotonic_ns();
      for (int i = 0; i < n; ++i) {
        const int s = done[i].slot;
        const Op& op = op_of[s];
        if (done[i].result < 0) io_failed(op.write, io_, op.offset, std::strerror(static_cast<int>(-done[i].result)));
        if (done[i].result != io_)
          io_failed(op.write, io_, op.offset, fmt::format("only {} bytes moved (end of file?)", done[i].result));
        record(out_, op.write, now - issued_at[s], io_);
        if (op.write) sync.write_completed(now);
        if (staged && !op.write)
          rt->check(rt->MemcpyAsync(slot_device(s), slot_host(s), static_cast<std::size_t>(io_), kHostToDevice,
                                    gpu_.streams[s]),
                    "cudaMemcpyAsync (host to device)");
        if (staged && pure_write && more) prefetch(s);
        free_slots.push_back(s);
        --inflight;
      }
    }
  }

  const WorkerContext& ctx_;
  const MeasureOptions& o_;
  ThreadResult& out_;
  OpFeed feed_;
  std::int64_t io_;
  int slots_ = 1;
  AlignedBuffer host_;
  char* host_ptr_ = nullptr;
  GpuResources gpu_;
  std::unique_ptr<HostEngine> engine_;
};

}  // namespace

void run_worker(const WorkerContext& ctx, ThreadResult& out, std::int64_t region_ops, std::uint64_t seed) {
  bool started = false;
  try {
    Worker w(ctx, out, region_ops, seed);
    try {
      w.setup();
    } catch (...) {
      ctx.abort->store(true);
      started = true;
      ctx.wait_for_start();  // the others wait for every thread; then they see the abort
      throw;
    }
    started = true;
    ctx.wait_for_start();
    if (ctx.abort->load()) return;
    w.run();
  } catch (const std::exception& e) {
    out.error = e.what();
    ctx.abort->store(true);
    if (!started) ctx.wait_for_start();
  }
}

}  // namespace iowall::measure
