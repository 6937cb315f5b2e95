// The topology device of one PCIe endpoint (a GPU, an NVMe drive, a virtio disk, a
// network adapter): its preset when the part is known, the parameters sysfs gives
// (capacity, block size, queues, line rate), the files they came from, and a note saying
// what to set when the part is not known.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "discover/nvidia_smi.hpp"
#include "discover/pci_scan.hpp"

namespace iowall::discover {

struct Endpoint {
  nlohmann::json device;             // {"id", "model", ...}
  std::vector<std::string> sources;  // "nvme0: /sys/... ..."
  std::string note;                  // "" when nothing is left to set
};

// What sysfs holds below the PCI functions, gathered once.
struct ClassIndex {
  std::vector<ClassDevice> blocks, nvme, net, infiniband;
  static ClassIndex read(const SysfsTree& tree);
};

Endpoint gpu_endpoint(const std::string& id, const PciFunction& f, const NvidiaSmi& smi);
Endpoint nvme_endpoint(const std::string& id, const PciFunction& f, const SysfsTree& tree, const ClassIndex& index);
Endpoint virtio_disk_endpoint(const std::string& id, const PciFunction& f, const SysfsTree& tree, const ClassIndex& index);
Endpoint nic_endpoint(const std::string& id, const PciFunction& f, const SysfsTree& tree, const ClassIndex& index);

// The kernel's name for what this function is: an NVMe controller ("nvme3"), a disk
// ("vda"), an RDMA device or else a network interface ("mlx5_0", "eth0"); "" when none.
enum class NameOf { nvme, disk, nic };
std::string kernel_name(const PciFunction& f, const ClassIndex& index, NameOf what);

}  // namespace iowall::discover
