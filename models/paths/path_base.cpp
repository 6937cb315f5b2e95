#include "models/paths/path_base.hpp"

#include "models/host/cpu_socket.hpp"
#include "sim/core/error.hpp"

#include <cmath>

#include <fmt/format.h>

namespace iowall {

CpuSocket& PathBase::cpu_near(const Device& device) {
  return static_cast<CpuSocket&>(env_.nearest(device, "cpu_socket"));
}
Dram& PathBase::dram_near(const Device& device) { return static_cast<Dram&>(env_.nearest(device, "dram")); }

void PathBase::set_buffer_segment(Bytes segment) {
  if (segment < Bytes(4096))
    throw InputError(env_.file, env_.pointer + "/buffer_segment",
                     "\"" + to_string(segment) + "\" is less than a page (4 KiB), the smallest DMA segment");
  buffer_segment_ = segment;
}

// A piece of a stacked store's I/O moves between its member and the far end of the
// route the path gave the store, as the path would route an I/O on the member itself.
const Route& PathBase::member_route(const Device& member, const Route& given, bool write) {
  const Device& far = env_.topology.device(write ? given.devices.front() : given.devices.back(), env_.file, env_.pointer);
  return write ? env_.route(far, member) : env_.route(member, far);
}

const Route& PathBase::memory_route(const Device& member, bool write) {
  const Dram& memory = dram_near(member);
  return write ? env_.route(memory, member) : env_.route(member, memory);
}

// Host-driven queues: the member's own, in the host memory nearest to it (blk-mq puts a
// queue pair on its device's NUMA node). Queues elsewhere (a GPU's memory): the member's
// routes to that memory. The submitter's settings (polling, batching) stay.
QueueRoutes PathBase::member_queues(Device& member, const QueueRoutes& given) {
  QueueRoutes q = given;
  if (!given.to_queues) return q;
  if (given.host_cores) {
    const QueueRoutes own = host_queues(member);
    q.to_queues = own.to_queues;
    q.from_queues = own.from_queues;
    q.host_cores = own.host_cores;
  } else {
    const Device& memory = env_.topology.device(given.to_queues->devices.back(), env_.file, env_.pointer);
    q.to_queues = &env_.route(member, memory);
    q.from_queues = &env_.route(memory, member);
  }
  return q;
}

void PathBase::thread_spend(std::uint32_t id, Time cost, InlineFunction<void()> then) {
  const InFlight& f = ios_[id];
  if (f.io.thread < 0) {
    f.cpu->spend(cost, then);
    return;
  }
  enqueue(id, {cost, f.cpu, then, nullptr, Bytes{}});
}

void PathBase::thread_send(std::uint32_t id, const Route& route, Bytes size, InlineFunction<void()> then) {
  if (ios_[id].io.thread < 0) {
    env_.mover.send(route, size, then);
    return;
  }
  enqueue(id, {Time{}, nullptr, then, &route, size});
}

void PathBase::enqueue(std::uint32_t id, Step step) {
  const auto t = static_cast<std::size_t>(ios_[id].io.thread);
  if (threads_.size() <= t) threads_.resize(t + 1);
  if (!threads_[t].busy_gauge) register_thread(t, ios_[id].cpu);
  threads_[t].waiting.push_back(std::move(step));
  if (!threads_[t].busy) wake(static_cast<int>(t));
}

// An idle thread's next step waits for its core to leave the C-state the governor chose
// when it went idle (interrupt-driven stacks: a polling thread never sleeps).
void PathBase::wake(int thread) {
  ThreadCpu& th = threads_[static_cast<std::size_t>(thread)];
  // A step that arrives as the last one ends (the next I/O submitted on completion) finds
  // the core still running: no idle period. The thread sleeps in the kernel for its I/O
  // (io_schedule): one task in iowait there.
  const Time exit = !stack_polls_ && th.cpu ? th.core.wake(*th.cpu, env_.ctx.now(), 1) : Time{};
  th.busy = true;  // waking: later steps queue behind this one
  if (exit.is_zero()) {
    th.busy = false;
    run_next(thread);
    return;
  }
  env_.ctx.in(exit, [this, thread] {
    threads_[static_cast<std::size_t>(thread)].busy = false;
    run_next(thread);
  });
}

void PathBase::register_thread(std::size_t thread, const CpuSocket* cpu) {
  ThreadCpu& th = threads_[thread];
  th.cpu = cpu;
  th.busy_gauge = std::make_unique<TimeWeighted>();
  SimContext& ctx = env_.ctx;
  if (ctx.series_period().is_positive()) th.busy_gauge->enable_series(ctx.series_period());
  ctx.stats().add(fmt::format("{}/thread{}/busy", cpu ? cpu->name() : std::string("host"), thread), "units",
                  "the workload thread on its core: busy while it has CPU work or a copy to do", *th.busy_gauge, 1);
}

void PathBase::run_next(int thread) {
  ThreadCpu& th = threads_[static_cast<std::size_t>(thread)];
  if (th.waiting.empty()) {
    th.busy = false;
    th.busy_gauge->set(env_.ctx.now(), 0);
    th.core.sleep(env_.ctx.now());
    return;
  }
  if (!th.busy) th.busy_gauge->set(env_.ctx.now(), 1);
  th.busy = true;
  const Step step = th.waiting.front();
  th.waiting.pop_front();
  th.running = step.then;
  if (step.copy)
    env_.mover.send(*step.copy, step.size, [this, thread] { step_done(thread); });
  else
    step.cpu->spend(step.cost, [this, thread] { step_done(thread); });
}

Time PathBase::thread_cpu(int thread) const {
  if (thread < 0 || static_cast<std::size_t>(thread) >= threads_.size()) return {};
  const ThreadCpu& th = threads_[static_cast<std::size_t>(thread)];
  if (!th.busy_gauge) return {};
  const Time now = env_.ctx.now();
  return nearest_ps(th.busy_gauge->mean(Time(0), now) * now.ps_value());
}

void PathBase::step_done(int thread) {
  const InlineFunction<void()> then = threads_[static_cast<std::size_t>(thread)].running;
  run_next(thread);
  then();
}

}  // namespace iowall
