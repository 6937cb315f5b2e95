// Where a workload's jobs run and what storage each uses, as the scenario names them:
// targets are GPU ids (or host memory for a host-only run), "all_gpus" when none are
// named; storage is a list of block storage ids striped round-robin, "local" (the
// nearest drives of each target), "all" or "paired" (target i uses drive i); a store
// stacked over drives (md RAID0) is used only where named. Checks that
// each job's bytes fit on its drives and that its I/Os suit them (queue depth, LBA size).
#pragma once
#include <string>
#include <vector>

#include "sim/config/topology.hpp"
#include "sim/core/block_storage.hpp"

namespace iowall {

// The targets named by `ids` (empty: every GPU); `allow_host`: host memory (dram) too.
std::vector<Device*> workload_targets(Topology& topology, const std::vector<std::string>& ids, bool allow_host,
                                      const std::string& file, const std::string& pointer);

struct StorageNeeds {
  Bytes size;     // bytes each job puts on its drives
  Bytes io_size;  // one I/O
  i64 qd = 1;     // I/Os one thread keeps in flight on a queue
};

// Each target's drives, in target order.
std::vector<std::vector<BlockStorage*>> workload_storage(Topology& topology, const std::vector<Device*>& targets,
                                                         const std::vector<std::string>& storage,
                                                         const StorageNeeds& needs, const std::string& file,
                                                         const std::string& pointer);

}  // namespace iowall
