// An NVMe-oF namespace as block storage on the client: `nvme connect` makes a target's
// namespace a local block device (/dev/nvmeXnY) that the client's paths read and write as
// they would a drive, and that a file system, an md array or a VM's virtual disk can stack
// over. Each I/O is one NVMe-oF command carried by the transport the namespace names
// (`transport`: rdma or tcp, with that transport's parameters): the command capsule
// crosses the network through the client NIC the namespace is connected by (`nic`), the
// target serves it from the store it exports (`target`: a drive, an md array, a file
// system holding the namespace's backing file), and the data moves between that store and
// the far end of the caller's route, host memory or a GPU (GPUDirect RDMA), across the NICs.
// A flush is a Flush command: its capsule crosses to the target, which flushes the exported
// store (nvmet's flush of its backing device) and replies.
//
// The caller's path charges its system call and block layer; the transport's
// initiator_submit and initiator_complete are what the host's NVMe-oF driver adds. The
// transport is built on the first I/O of each calling path, in that path's simulation.
//
// Namespaces connected with the same transport settings share the transport (one host
// driver); namespaces with different settings through one NIC each have their own, so
// that NIC's RDMA engine is modelled once per setting.
// Not modelled: reads or writes a caller sends without routes to lend (a path with queues
// of its own, gpu_initiated); over TCP (reads only here) a flush goes to the store directly.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "sim/core/block_storage.hpp"
#include "sim/core/device.hpp"
#include "sim/core/stats.hpp"
#include "sim/run/data_path.hpp"

namespace iowall::nvmeof {

class NvmeofNamespace final : public Device, public BlockStorage {
public:
  NvmeofNamespace(const Params& p, SimContext& ctx);

  IOWALL_PARAM(std::string, target, "",
               "the block storage the target exports as this namespace (a drive, an md array, a file system holding "
               "the backing file), on a server the client reaches over the network",
               "nvmetcfg: a subsystem namespace's device_path (a block device or a file)");

  void read(Bytes size, const Route& to, RouteMover& mover, Done done, const BlockIo& io = {}) override;
  void write(Bytes size, const Route& from, RouteMover& mover, Done done, const BlockIo& io = {}) override;
  void flush(Done done, SyncScope scope) override;
  BlockStorage* as_block_storage() override { return this; }
  void find_devices(const std::function<Device*(const std::string&)>& find) override;

private:
  void submit(bool write, Bytes size, const Route& given, RouteMover& mover, Done done, const BlockIo& io);
  DataPath& transport_for(StackedRoutes* lender, RouteMover& mover);
  Device& far_end(const Route& given, bool write);

  BlockStorage* target_ = nullptr;
  // Namespaces connected with the same transport settings share one transport per
  // caller (one host driver: its queue pairs and each NIC's RDMA engine serve them all).
  struct Caller {
    std::shared_ptr<PathEnv> env;
    std::shared_ptr<DataPath> transport;
  };
  // The transport settings: this device's keys but its own (id, model, target).
  Json transport_settings() const;
  std::map<const StackedRoutes*, Caller> callers_;
  Caller* last_caller_ = nullptr;
  const StackedRoutes* last_lender_ = nullptr;
  Topology* topology_ = nullptr;
  std::unordered_map<const Route*, Device*> far_ends_;
  Bytes next_offset_;
  bool carries_flush_ = false;  // the transport carries a Flush command (RDMA)
  Counter ios_, flushes_;
};

}  // namespace iowall::nvmeof
