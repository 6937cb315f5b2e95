#include "models/nvmeof/nvmeof_path.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "models/paths/host_copy.hpp"

namespace iowall::nvmeof {

NvmeofPath::NvmeofPath(const CommonConfig& common, PathEnv& env)
    : PathBase(env), common_(common), per_connection_(common.receive == "per_connection") {
  if (env.ctx.fidelity() == Fidelity::tlp)
    throw InputError(env.file, env.pointer, "NVMe-oF paths run at chunk fidelity only (not tlp)");
}

const Endpoints& NvmeofPath::endpoints(const IoRequest& r) {
  auto& slot = endpoints_[{r.target, &r.storage->device()}];
  if (slot) return *slot;
  if (r.write && !models_writes_)
    throw InputError(env_.file, env_.pointer, "this NVMe-oF transport simulates reads only (the workload writes)");
  auto e = std::make_unique<Endpoints>();
  // Where the store sits: a drive's own device, or for a stacked store (md RAID0 on the
  // server) its first member's, which finds the server's NIC, CPU and memory.
  const Device& place = r.storage->place();
  e->client = r.target;
  e->client_nic = &choose_nic(env_, *r.target, common_.nic);
  e->target_nic = &target_nic(env_, *r.target, *e->client_nic, place, common_.target_nic);
  if (!env_.topology.connected(*e->target_nic, place))
    throw InputError(env_.file, env_.pointer,
                     fmt::format("no route between {} and {}: {} reaches {}, which is not on {}'s PCIe hierarchy",
                                 r.target->name(), place.name(), e->client_nic->name(), e->target_nic->name(),
                                 place.name()));
  e->client_cpu = &placed_cpu(*r.target, *e->client_nic);
  e->target_cpu = &cpu_near(place);
  e->client_queues = &dram_near(*e->client_nic);
  e->bounce = &placed_memory(*r.target, *e->client_nic);
  e->target_queues = &dram_near(*e->target_nic);
  e->target_data = &dram_near(place);
  slot = std::move(e);
  return *slot;
}

// A placement key's device: near the I/O's target ("gpu"), near the client NIC ("nic"),
// or a device of the given model named by id, checked against the topology.
Device& NvmeofPath::placed(const std::string& key, const std::string& choice, const char* model, const Device& target,
                           const Nic& nic) {
  if (choice == "gpu") return env_.nearest(target, model);
  if (choice == "nic") return env_.nearest(nic, model);
  Device* d = env_.topology.find(choice);
  if (!d || d->model() != model)
    throw InputError(env_.file, env_.pointer + "/" + key,
                     fmt::format("\"{}\" is not gpu, nic or a {} of the topology", choice, model));
  // In the same node: reached without crossing a network (a NIC on the way).
  const bool same_node = env_.topology.connected(*d, target) && [&] {
    const Route& r = env_.topology.route(*d, target);
    return std::none_of(r.devices.begin(), r.devices.end(),
                        [&](const std::string& id) { return env_.topology.find(id)->model() == "nic"; });
  }();
  if (!same_node)
    throw InputError(env_.file, env_.pointer + "/" + key,
                     fmt::format("{} is not in the node of {}: they are not on one PCIe hierarchy", choice, target.name()));
  return *d;
}

CpuSocket& NvmeofPath::placed_cpu(const Device& target, const Nic& nic) {
  return static_cast<CpuSocket&>(placed("cpu", common_.cpu, "cpu_socket", target, nic));
}

Dram& NvmeofPath::placed_memory(const Device& target, const Nic& nic) {
  return static_cast<Dram&>(placed("bounce_memory", common_.bounce_memory, "dram", target, nic));
}

void NvmeofPath::receive_command(std::uint32_t id, const Endpoints& e) {
  if (receipts_.size() <= id) receipts_.resize(id + 1);
  receipts_[id] = {&e, nullptr};
  if (!per_connection_) return take_thread(id);
  Receiver& rx = receiver(e, io(id).io.connection);
  receipts_[id].receiver = &rx;
  if (rx.gate.free() > 0) rx.busy.add(env_.ctx.now(), 1);
  rx.gate.acquire([this, id] { take_thread(id); });
}

// The connection stays held (XPT_BUSY) while its command waits for a thread and while
// that thread receives it; then the next command on it may be taken.
void NvmeofPath::take_thread(std::uint32_t id) {
  target_acquire(id, *receipts_[id].e, [this, id] {
    receipts_[id].e->target_cpu->spend(common_.target_cost / 2, [this, id] {
      if (Receiver* rx = receipts_[id].receiver) {
        if (rx->gate.waiting() == 0) rx->busy.add(env_.ctx.now(), -1);
        rx->gate.release();
      }
      command_received(id);
    });
  });
}

NvmeofPath::Receiver& NvmeofPath::receiver(const Endpoints& e, int connection) {
  auto& slot = receivers_[{e.client_nic, connection}];
  if (!slot) {
    slot = std::make_unique<Receiver>();
    const std::string name = fmt::format("{}/receive/{}{}", e.target_cpu->name(), e.client_nic->name(),
                                         connection > 0 ? fmt::format(".{}", connection) : "");
    env_.ctx.stats().add(name + "/busy", "commands",
                         "a client connection's receipt at the target: one command at a time (sunrpc XPT_BUSY)",
                         slot->busy, 1);
  }
  return *slot;
}

void NvmeofPath::target_acquire(std::uint32_t id, const Endpoints& e, InlineFunction<void()> then) {
  if (common_.target_threads == 0 || io(id).io.shares_thread) return then();
  auto& t = threads_[e.target_cpu];
  if (!t) {
    t = std::make_unique<ServiceThreads>(static_cast<int>(common_.target_threads));
    env_.ctx.stats().add(e.target_cpu->name() + "/service_threads/busy", "threads",
                         "target service threads holding a command (nfsd threads for NFS)", t->busy,
                         common_.target_threads);
  }
  // Threads in use change only when one is taken free or given back with nobody waiting
  // (a released thread passes straight to the next command).
  if (t->pool.free() > 0) t->busy.add(env_.ctx.now(), 1);
  t->pool.acquire(std::move(then));
}

void NvmeofPath::target_release(std::uint32_t id, const Endpoints& e) {
  if (common_.target_threads == 0 || io(id).io.shares_thread) return;
  ServiceThreads& t = *threads_.at(e.target_cpu);
  if (t.pool.waiting() == 0) t.busy.add(env_.ctx.now(), -1);
  t.pool.release();
}

// The completion runs in the I/O's thread, which slept for it: its core wakes from the
// C-state it entered first (PathBase::thread_spend).
void NvmeofPath::client_completes(std::uint32_t id, const Endpoints& e) {
  if (bounces(io(id).io) && !io(id).io.write) {
    thread_spend(id, common_.initiator_complete + common_.copy_launch_cost,
                 [this, id, &e] { copy_to_gpu_then_finish(id, e); });
    return;
  }
  thread_spend(id, common_.initiator_complete, [this, id] { finish(id); });
}

void NvmeofPath::copy_to_gpu_then_finish(std::uint32_t id, const Endpoints& e) {
  auto& gpu = static_cast<Gpu&>(*io(id).io.target);
  // The GPU's copy engine reads host memory: completions carry the data.
  env_.mover.send(gpu_copy_route(env_, gpu, *e.bounce, true), io(id).io.size, [this, id] { finish(id); },
                  DmaKind::read);
}

}  // namespace iowall::nvmeof
