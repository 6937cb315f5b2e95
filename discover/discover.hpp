// `iowall topo discover`: the topology of the Linux machine it runs on, read from sysfs
// (and /proc, and nvidia-smi where present) or from a recording of them, as a topology
// document that `iowall run` simulates as it is. Sockets, NUMA memory and root complexes
// come from /sys/devices/system; the PCIe tree (root ports, switches, GPUs, NVMe drives,
// NICs, with each link's generation and width) from /sys/bus/pci/devices; drives' queues,
// block sizes and capacities from /sys/block and /sys/class/nvme; NIC speeds from
// /sys/class/net and /sys/class/infiniband; NVLink from `nvidia-smi topo -m`. Known parts
// get their presets (discover/parts.hpp); every fact's file is listed in "sources", and a
// device whose part is not known says in its description what to set. Nothing is written
// on the machine read.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace iowall::discover {

struct DiscoverOptions {
  // A recording (a folder holding sys/ and proc/, as scripts/capture-sysfs.sh writes) or a
  // folder laid out as /sys; "" reads the running machine's /sys and /proc.
  std::string sysfs_root;
  std::string proc_root;       // a folder laid out as /proc ("" : /proc, or the recording's proc/)
  std::string nvidia_smi_dir;  // topo-m.txt and q.txt recorded ("" : nvidia-smi run when on PATH,
                               // or the recording's nvidia-smi/)
};

struct Discovered {
  nlohmann::json topology;
  std::vector<std::string> notes;  // what to set, by device ("gpu0: ...")
};

// Throws InputError naming the option for a root that is not a sysfs tree or a folder that
// does not exist.
Discovered discover_topology(const DiscoverOptions& options);

}  // namespace iowall::discover
