// What the data paths share: a pool of in-flight I/O records, the storage step (a
// read moves bytes out of block storage along a route, a write into it), the host
// CPU and memory nearest a device, and completion. A store stacked over others (md
// RAID0) gets its members' routes and queues from the path as the path would give them
// to each member (sim/core/block_storage.hpp, StackedRoutes).
#pragma once
#include <deque>
#include <memory>
#include <vector>

#include "models/host/cpu_socket.hpp"
#include "models/host/dram.hpp"
#include "sim/core/block_storage.hpp"
#include "sim/core/slot_pool.hpp"
#include "sim/run/data_path.hpp"

namespace iowall {

class PathBase : public DataPath, public StackedRoutes {
public:
  // The simulation this path runs in (a store that runs a path of its own for its I/Os,
  // an NVMe-oF namespace, builds it there).
  PathEnv& env() const { return env_; }

protected:
  struct InFlight {
    IoRequest io;
    Done done;
    CpuSocket* cpu = nullptr;
    const Route* first = nullptr;   // the storage DMA's route (or the first copy)
    const Route* second = nullptr;  // a second stage's route, if any
  };
  explicit PathBase(PathEnv& env) : env_(env) {}

  std::uint32_t begin(const InFlight& f) { return ios_.acquire(f); }
  // The CPU socket and host memory nearest to `device` (fewest hops).
  CpuSocket& cpu_near(const Device& device);
  Dram& dram_near(const Device& device);
  InFlight& io(std::uint32_t id) { return ios_[id]; }
  // Reads from or writes to the I/O's SSD along `route`, then `then`.
  // The drive's queues live in the host memory nearest to it (a CPU-driven stack), so
  // doorbells, SQ entry fetches and CQ entries cross those routes.
  void storage_step(std::uint32_t id, const Route& route, BlockStorage::Done then) {
    const IoRequest& r = ios_[id].io;
    storage_part(r, r.offset, r.size, route, then);
  }
  // The same for `size` bytes of `r` from `offset` (a piece of a split I/O). `queues`:
  // where the I/O queues live when not in the host memory near the drive.
  void storage_part(const IoRequest& r, Bytes offset, Bytes size, const Route& route, BlockStorage::Done then,
                    const QueueRoutes* queues = nullptr, int queue = -1) {
    // blk-mq maps the submitting CPU to a queue: a thread keeps to one queue pair.
    if (queue < 0) queue = r.thread;
    const BlockIo bio{offset, queue, queues ? *queues : host_queues(r.storage->device()), buffer_segment_,
                      r.buffer_footprint};
    if (r.write)
      r.storage->write(size, route, env_.mover, then, bio);
    else
      r.storage->read(size, route, env_.mover, then, bio);
  }
  // No hints (the store places the data and leaves queue traffic unmodelled); a stacked
  // store still routes its members' pieces through this path.
  BlockIo unhinted_io() {
    BlockIo b;
    b.queues.stacked = this;
    return b;
  }
  // The drive's queues in the host memory nearest to it, driven by this path's host stack.
  QueueRoutes host_queues(Device& storage) {
    Dram& queue_memory = dram_near(storage);
    QueueRoutes r;
    r.to_queues = &env_.route(storage, queue_memory);
    r.from_queues = &env_.route(queue_memory, storage);
    r.mover = &env_.mover;
    r.submitter_polls = stack_polls_;
    r.host_cores = &cpu_near(queue_memory).core_server();
    r.stacked = this;
    return r;
  }
  // CPU time the I/O's own thread spends (system calls, cuFile's control plane, copy
  // launches): a thread runs on one core at a time, so its steps queue behind each other
  // even while other cores are idle. I/Os without a thread only queue for the cores.
  void thread_spend(std::uint32_t id, Time cost, InlineFunction<void()> then);
  // A copy the I/O's own thread makes (read() and write() copy between the page cache and
  // the user buffer in the caller; cudaMemcpy stages pageable memory in the caller): the
  // thread is taken until `size` bytes have crossed `route`, whose first hop holds a core.
  void thread_send(std::uint32_t id, const Route& route, Bytes size, InlineFunction<void()> then);
  // The thread's time on its core so far: the integral of its busy gauge.
  Time thread_cpu(int thread) const override;
  void finish(std::uint32_t id) {
    const Done done = ios_[id].done;
    ios_.release(id);
    done();
  }

  PathEnv& env_;
  // The host stack reaps by polling (io_uring IOPOLL, SPDK): it asks the drive's host driver
  // to poll its queues (models/nvme/host_driver.hpp decides).
  bool stack_polls_ = false;
  // The I/O buffer's physically contiguous run (BlockIo::segment); 0: one segment per I/O.
  Bytes buffer_segment_{0};
  // Sets it from the path's buffer_segment: at least a page (the block layer's smallest
  // segment), InputError naming the key otherwise.
  void set_buffer_segment(Bytes segment);

private:
  struct Step {
    Time cost;
    CpuSocket* cpu;
    InlineFunction<void()> then;
    const Route* copy = nullptr;  // a copy over this route instead of `cost` on `cpu`
    Bytes size;
  };
  const Route& member_route(const Device& member, const Route& given, bool write) override;
  QueueRoutes member_queues(Device& member, const QueueRoutes& given) override;
  const Route& memory_route(const Device& member, bool write) override;
  void enqueue(std::uint32_t id, Step step);
  void step_done(int thread);
  struct ThreadCpu {
    std::deque<Step> waiting;
    InlineFunction<void()> running;  // the step on a core now
    bool busy = false;
    // The thread on its core (1 while it has a step to run): a run whose thread is busy
    // all the time is bound by that thread's CPU, whatever the devices do.
    std::unique_ptr<TimeWeighted> busy_gauge;
    // Its core's idleness, to wake it from the C-state the governor chose.
    IdleCore core;
    const CpuSocket* cpu = nullptr;
  };
  void register_thread(std::size_t thread, const CpuSocket* cpu);
  void wake(int thread);
  void run_next(int thread);

  SlotPool<InFlight> ios_;
  std::vector<ThreadCpu> threads_;
};

}  // namespace iowall
