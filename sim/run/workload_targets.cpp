#include "sim/run/workload_targets.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sim/core/device.hpp"
#include "sim/core/error.hpp"

namespace iowall {

std::vector<Device*> workload_targets(Topology& topology, const std::vector<std::string>& ids, bool allow_host,
                                      const std::string& file, const std::string& pointer) {
  std::vector<Device*> targets;
  if (ids.empty()) {
    targets = topology.devices_of("gpu");
    if (targets.empty()) throw InputError(file, pointer + "/targets", "the topology has no GPU to target");
    return targets;
  }
  for (const auto& id : ids) {
    Device& d = topology.device(id, file, pointer + "/targets");
    // GPUs, or host memory for cpu_only.
    if (d.model() != "gpu" && !(allow_host && d.model() == "dram"))
      throw InputError(file, pointer + "/targets",
                       fmt::format("{} is a {}, not a gpu{}", id, d.model(), allow_host ? " (or dram)" : ""));
    targets.push_back(&d);
  }
  return targets;
}

std::vector<std::vector<BlockStorage*>> workload_storage(Topology& topology, const std::vector<Device*>& targets,
                                                         const std::vector<std::string>& storage,
                                                         const StorageNeeds& needs, const std::string& file,
                                                         const std::string& pointer) {
  // The drives are the topology's block storage devices (sim/core/block_storage.hpp).
  // A store stacked over drives (md RAID0) is named, not taken by local, all or paired:
  // those mean the drives themselves, each as its programs reach it (a VM's drive through
  // the virtual disk in front of it: BlockStorage::fronted).
  std::map<const BlockStorage*, BlockStorage*> front;
  for (BlockStorage* s : topology.block_storage())
    for (const BlockStorage* m : s->fronted()) front[m] = s;
  std::vector<BlockStorage*> ssds;
  for (BlockStorage* s : topology.block_storage())
    if (!s->stacked()) ssds.push_back(front.count(s) ? front[s] : s);
  if (ssds.empty())
    throw InputError(file, pointer + "/storage", "the topology has no block storage (nvme_ssd) to read from");
  std::vector<std::vector<BlockStorage*>> out;
  const bool local = storage.size() == 1 && storage[0] == "local";
  const bool all = storage.size() == 1 && storage[0] == "all";
  const bool paired = storage.size() == 1 && storage[0] == "paired";
  for (Device* t : targets) {
    std::vector<BlockStorage*> list;
    if (paired) {
      list.push_back(ssds[out.size() % ssds.size()]);
    } else if (local) {
      // The drives with the shortest route to this target (those under its switch); drives
      // of another node (an NVMe-oF target) are not local to it.
      std::size_t best = SIZE_MAX;
      // (A virtual disk is as near as the drive it fronts: its place.)
      for (BlockStorage* s : ssds)
        if (topology.connected(s->place(), *t)) best = std::min(best, topology.route(s->place(), *t).devices.size());
      for (BlockStorage* s : ssds)
        if (topology.connected(s->place(), *t) && topology.route(s->place(), *t).devices.size() == best)
          list.push_back(s);
      if (list.empty())
        throw InputError(file, pointer + "/storage",
                         fmt::format("no SSD is local to {}: name the storage devices", t->name()));
    } else if (all) {
      list = ssds;
    } else {
      for (const auto& id : storage) list.push_back(&topology.block_storage(id, file, pointer + "/storage"));
    }
    // The data each target moves must fit on the drives it uses.
    Bytes capacity;
    for (BlockStorage* s : list) capacity += s->limits().capacity;
    if (needs.size > capacity)
      throw InputError(file, pointer + "/size",
                       fmt::format("{} does not fit on the {} drive(s) of {} ({} in all)", to_string(needs.size),
                                   list.size(), t->name(), to_string(capacity)));
    for (BlockStorage* s : list) {
      const BlockLimits& limits = s->limits();
      if (needs.qd > limits.queue_depth)
        throw InputError(file, pointer + "/qd",
                         fmt::format("queue depth {} is above {}'s limit of {} per queue pair (queue entries - 1, or "
                                     "CIDs)",
                                     needs.qd, s->device().name(), limits.queue_depth));
      if (!needs.io_size.is_multiple_of(limits.lba_size))
        throw InputError(file, pointer + "/io_size",
                         fmt::format("{} is not a multiple of {}'s LBA size {}", to_string(needs.io_size),
                                     s->device().name(), to_string(limits.lba_size)));
    }
    out.push_back(std::move(list));
  }
  return out;
}

}  // namespace iowall
