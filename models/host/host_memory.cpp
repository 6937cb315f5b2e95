#include "models/host/host_memory.hpp"

#include <algorithm>

namespace iowall {

namespace {

constexpr Bytes kSmallPage(4096), kHugePage(2 * 1024 * 1024);

// The thread's copy between a staging buffer and user memory: one core at `rate`, host
// memory crossed twice (read and write).
Route staged_route(CpuSocket& cpu, Dram& dram, Bandwidth rate, const char* what) {
  Route r;
  Hop core;
  core.server = &cpu.core_server();
  core.bandwidth = rate;
  core.label = cpu.name() + " " + what;
  Hop mem = dram.access_hop();
  mem.bandwidth = scale(dram.bandwidth, 1, 2);
  mem.label = dram.name() + " " + what;
  r.hops = {core, mem};
  r.devices = {cpu.name(), dram.name()};
  return r;
}

}  // namespace

Time first_touch_time(const CpuSocket& cpu, Bytes bytes, bool huge_pages) {
  const i64 pages = ceil_div(bytes, huge_pages ? kHugePage : kSmallPage);
  return cpu.page_fault_cost * pages + transfer_time(bytes, cpu.page_zero_bandwidth);
}

void RankThread::spend(Time cost, InlineFunction<void()> then) {
  busy_ = busy_ + cost;
  cpu_->spend(cost, then);
}

HostCopies::HostCopies(PathEnv& env, Gpu& gpu, Dram& dram, RankThread& thread)
    : env_(env),
      gpu_(gpu),
      thread_(thread),
      d2h_(env.route(gpu, dram, {gpu.copy_engine_hop()})),
      h2d_(env.route(dram, gpu, {gpu.copy_engine_hop()})),
      staged_d2h_(staged_route(thread.cpu(), dram, gpu.staged_d2h_bandwidth, "staged copy (d2h)")),
      staged_h2d_(staged_route(thread.cpu(), dram, gpu.staged_h2d_bandwidth, "staged copy (h2d)")) {}

void HostCopies::copy(Bytes bytes, bool to_gpu, HostMemoryKind kind, bool huge_pages, Done done, CopySource* source) {
  st_ = Staged{};
  st_.done = done;
  st_.source = to_gpu ? source : nullptr;
  if (kind == HostMemoryKind::pinned) {
    thread_.spend(gpu_.copy_call_cost, [this, to_gpu, bytes] {
      env_.mover.send(to_gpu ? h2d_ : d2h_, bytes, [this] { st_.done(); }, to_gpu ? DmaKind::read : DmaKind::write);
    });
    return;
  }
  st_.total = bytes;
  st_.chunk = std::max(Bytes(1), gpu_.staging_chunk);
  st_.chunks = ceil_div(bytes, st_.chunk);
  st_.to_gpu = to_gpu;
  st_.fresh = kind == HostMemoryKind::pageable_fresh && !to_gpu;
  st_.huge = huge_pages;
  thread_.spend(gpu_.copy_call_cost, [this] {
    if (st_.chunks == 0) return st_.done();
    pump();
  });
}

Bytes HostCopies::chunk_bytes(i64 k) const { return std::min(st_.chunk, st_.total - st_.chunk * k); }

void HostCopies::pump() {
  // First stage: into a free staging buffer (d2h: the copy engine; h2d: the thread).
  if (!st_.first_busy && st_.free_buffers > 0 && st_.first_next < st_.chunks) {
    st_.first_busy = true;
    --st_.free_buffers;
    const i64 k = st_.first_next++;
    if (st_.to_gpu) cpu_step(k);
    else dma_step(k);
  }
  // Second stage: out of a filled buffer.
  if (!st_.second_busy && st_.ready > 0) {
    st_.second_busy = true;
    --st_.ready;
    const i64 k = st_.second_next++;
    if (st_.to_gpu) dma_step(k);
    else cpu_step(k);
  }
}

void HostCopies::cpu_step(i64 k) {
  const Bytes bytes = chunk_bytes(k);
  if (st_.source) return st_.source->ready(st_.chunk * k, bytes, [this, bytes] { cpu_copy(bytes); });
  if (!st_.fresh) return cpu_copy(bytes);
  // New pages: each faults and is zeroed before the driver copies into it.
  thread_.spend(first_touch_time(thread_.cpu(), bytes, st_.huge), [this, bytes] { cpu_copy(bytes); });
}

void HostCopies::cpu_copy(Bytes bytes) {
  const Time start = env_.ctx.now();
  env_.mover.send(st_.to_gpu ? staged_h2d_ : staged_d2h_, bytes, [this, start] {
    thread_.add_busy(env_.ctx.now() - start);
    if (st_.to_gpu) {
      st_.first_busy = false;
      ++st_.ready;
      pump();
    } else {
      st_.second_busy = false;
      finished_chunk();
    }
  });
}

void HostCopies::dma_step(i64 k) {
  const Bytes bytes = chunk_bytes(k);
  const bool to_gpu = st_.to_gpu;
  env_.mover.send(
      to_gpu ? h2d_ : d2h_, bytes,
      [this] {
        if (st_.to_gpu) {
          st_.second_busy = false;
          finished_chunk();
        } else {
          st_.first_busy = false;
          ++st_.ready;
          pump();
        }
      },
      to_gpu ? DmaKind::read : DmaKind::write);
}

void HostCopies::finished_chunk() {
  ++st_.free_buffers;
  if (++st_.finished == st_.chunks) return st_.done();
  pump();
}

void HostCopies::cpu_pass(Bytes bytes, Bandwidth rate, Done done) { thread_.spend(transfer_time(bytes, rate), done); }

}  // namespace iowall
