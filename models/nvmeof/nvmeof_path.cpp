#include "models/nvmeof/nvmeof_path.hpp"

#include <fmt/format.h>

#include "models/paths/host_copy.hpp"

namespace iowall::nvmeof {

NvmeofPath::NvmeofPath(const CommonConfig& common, PathEnv& env) : PathBase(env), common_(common) {
  if (env.ctx.fidelity() == Fidelity::tlp)
    throw InputError(env.file, env.pointer, "NVMe-oF paths run at chunk fidelity only (not tlp)");
}

const Endpoints& NvmeofPath::endpoints(const IoRequest& r) {
  auto& slot = endpoints_[{r.target, &r.storage->device()}];
  if (slot) return *slot;
  if (r.write && !models_writes_)
    throw InputError(env_.file, env_.pointer, "this NVMe-oF transport simulates reads only (the workload writes)");
  auto e = std::make_unique<Endpoints>();
  e->client = r.target;
  e->client_nic = &choose_nic(env_, *r.target, common_.nic);
  e->target_nic = &target_nic(env_, *e->client_nic, r.storage->device());
  if (!env_.topology.connected(*e->target_nic, r.storage->device()))
    throw InputError(env_.file, env_.pointer,
                     fmt::format("no route between {} and {}: {} reaches {}, which is not on {}'s PCIe hierarchy",
                                 r.target->name(), r.storage->device().name(), e->client_nic->name(), e->target_nic->name(),
                                 r.storage->device().name()));
  e->client_cpu = &cpu_near(*r.target);
  e->target_cpu = &cpu_near(r.storage->device());
  e->client_queues = &dram_near(*e->client_nic);
  e->bounce = &dram_near(*r.target);
  e->target_queues = &dram_near(*e->target_nic);
  e->target_data = &dram_near(r.storage->device());
  slot = std::move(e);
  return *slot;
}

void NvmeofPath::client_completes(std::uint32_t id, const Endpoints& e) {
  if (bounces(io(id).io) && !io(id).io.write) {
    e.client_cpu->spend(common_.initiator_complete + common_.copy_launch_cost,
                        [this, id, &e] { copy_to_gpu_then_finish(id, e); });
    return;
  }
  e.client_cpu->spend(common_.initiator_complete, [this, id] { finish(id); });
}

void NvmeofPath::copy_to_gpu_then_finish(std::uint32_t id, const Endpoints& e) {
  auto& gpu = static_cast<Gpu&>(*io(id).io.target);
  // The GPU's copy engine reads host memory: completions carry the data.
  env_.mover.send(gpu_copy_route(env_, gpu, *e.bounce, true), io(id).io.size, [this, id] { finish(id); },
                  DmaKind::read);
}

}  // namespace iowall::nvmeof
