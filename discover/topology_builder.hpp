// Turns what was read of a machine into a topology document: the host (discover/host_part),
// then the PCIe tree below each socket's root buses, walked from the root ports down: a bridge whose
// children are bridges is a switch (its downstream ports dn0..), a GPU, NVMe drive,
// virtio disk or network adapter becomes a device on the port above it, and subtrees
// holding none of these are left out. Each link's generation is the highest both ends
// support (max_link_speed: GPUs and NICs drop to Gen1 when idle, so current_link_speed
// says less than the link does under load); its width is the one trained
// (current_link_width). Then NVLink (discover/nvlink_part).
#pragma once
#include "discover/discover.hpp"
#include "discover/host_scan.hpp"
#include "discover/nvidia_smi.hpp"
#include "discover/sysfs_tree.hpp"

namespace iowall::discover {

// `leading` sources go first (what was read: the live machine or a recording).
Discovered build_topology(const SysfsTree& tree, const NvidiaSmi& smi, std::vector<std::string> leading);

}  // namespace iowall::discover
