#include "models/nvmeof/nvmeof_namespace.hpp"

#include <fmt/format.h>

#include "models/nvmeof/nvmeof_path.hpp"
#include "models/paths/path_base.hpp"
#include "models/storage/stacked_store.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/error.hpp"

namespace iowall::nvmeof {

NvmeofNamespace::NvmeofNamespace(const Params& p, SimContext& ctx)
    : Device(p, ctx), BlockStorage(static_cast<Device&>(*this)) {
  // The transport's parameters are the namespace's: read (checked, documented) now.
  describe_transport(params());
  register_stat("ios", "I/Os", "reads and writes sent to the target as NVMe-oF commands", ios_);
  register_stat("flushes", "flushes", "flushes sent to the exported store", flushes_);
}

void NvmeofNamespace::find_devices(const std::function<Device*(const std::string&)>& find) {
  const Params& p = params();
  target_ = &find_block_storage(*this, find, "target", target);
  // The connection leaves by one client NIC (nvme connect's host_traddr): the namespace's
  // place for what is near it (the client's memory and cores).
  const CommonConfig common(p);
  Device* nic = find(common.nic);
  if (!nic || nic->model() != "nic")
    p.fail("nic", fmt::format("\"{}\" is not a nic of the topology: a namespace is connected through one client NIC, "
                              "named by its id",
                              common.nic));
  set_limits(target_->limits());
  set_place(*nic);
  carries_flush_ = TransportChoice(p, "rdma").transport == "rdma";
}

void NvmeofNamespace::read(Bytes size, const Route& to, RouteMover& mover, Done done, const BlockIo& io) {
  submit(false, size, to, mover, done, io);
}

void NvmeofNamespace::write(Bytes size, const Route& from, RouteMover& mover, Done done, const BlockIo& io) {
  submit(true, size, from, mover, done, io);
}

void NvmeofNamespace::submit(bool write, Bytes size, const Route& given, RouteMover& mover, Done done,
                             const BlockIo& io) {
  ios_.add();
  IoRequest r;
  r.size = size;
  // Without an offset hint, after the last I/O (as a stacked store places one).
  r.offset = io.offset.is_negative() ? next_offset_ : io.offset;
  next_offset_ = (r.offset + size) % limits().capacity;
  r.write = write;
  r.storage = target_;
  DataPath& transport = transport_for(io.queues.stacked, mover);
  r.target = &far_end(given, write);
  transport.submit(r, done);
}

void NvmeofNamespace::flush(Done done, SyncScope scope) {
  flushes_.add();
  // A Flush command over the transport of the latest caller: its capsule, the target's
  // flush of the store, the response. Before any I/O, or over TCP (which carries reads
  // only here), the store is flushed directly.
  if (!last_caller_ || !carries_flush_) return target_->flush(done, scope);
  IoRequest r;
  r.write = true;
  r.flush = true;
  r.flush_scope = scope;
  r.offset = Bytes(0);
  r.storage = target_;
  r.target = &last_caller_->env->nearest(place(), "dram");
  last_caller_->transport->submit(r, done);
}

DataPath& NvmeofNamespace::transport_for(StackedRoutes* lender, RouteMover& mover) {
  if (lender == last_lender_ && last_caller_) return *last_caller_->transport;
  auto* path = dynamic_cast<PathBase*>(lender);
  if (!path)
    throw RunError(fmt::format("{} ({}): the I/O's caller is not a data path that lends its routes (a path that sets "
                               "up its own queues, such as gpu_initiated, cannot use a namespace)",
                               name(), model()));
  Caller& c = callers_[lender];
  if (!c.transport) {
    PathEnv& env = path->env();
    topology_ = &env.topology;
    const Json mine = transport_settings();
    for (Device* d : env.topology.devices_of(model())) {
      const auto* other = static_cast<const NvmeofNamespace*>(d);
      const auto it = other->callers_.find(lender);
      if (other == this || it == other->callers_.end() || other->transport_settings() != mine) continue;
      c = it->second;
      break;
    }
    if (!c.transport) {
      // The caller's simulation, with this device's file and pointer for errors.
      c.env = std::make_shared<PathEnv>(env.ctx, env.topology, mover, params().where().file, params().where().pointer);
      c.transport = make_transport(params(), *c.env);
    }
  }
  last_lender_ = lender;
  last_caller_ = &c;
  return *c.transport;
}

Json NvmeofNamespace::transport_settings() const {
  Json j = params().json();
  for (const char* own : {"id", "model", "target"}) j.erase(own);
  return j;
}

Device& NvmeofNamespace::far_end(const Route& given, bool write) {
  Device*& slot = far_ends_[&given];
  if (slot) return *slot;
  // A store on no link gets a route of its two ends: the data's other end is the far one.
  const std::string& id = write ? given.devices.front() : given.devices.back();
  slot = topology_->find(id);
  if (!slot) throw RunError(fmt::format("{}: the route's end {} is not in the topology", name(), id));
  return *slot;
}

IOWALL_REGISTER_DEVICE(NvmeofNamespace, "nvmeof_namespace",
                       "an NVMe-oF namespace connected on the client: block storage whose I/Os are NVMe-oF commands "
                       "to a store a target exports");

}  // namespace iowall::nvmeof
