// The PCI functions of a machine and the bridge hierarchy between them, read from
// /sys/bus/pci/devices: each entry links to its place under /sys/devices/pciDDDD:BB/...,
// and the functions named along that path are the bridges above it (root port, switch
// upstream and downstream ports). Also the class devices that hang below a function
// (block devices, NVMe controllers, network interfaces, RDMA devices), found the same way.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "discover/sysfs_tree.hpp"

namespace iowall::discover {

struct PciFunction {
  std::string bdf;       // "0000:1b:00.0"
  std::string path;      // "/sys/devices/pci0000:15/0000:15:01.0/.../0000:1b:00.0"
  std::string parent;    // the bridge above ("" on a root bus)
  std::string root_bus;  // "pci0000:15"
  unsigned cls = 0;      // 24-bit class code (0x030200: 3D controller)
  unsigned vendor = 0, device = 0;
  int numa_node = -1;
  std::string current_speed, max_speed;  // "32.0 GT/s PCIe" ("" when absent)
  int current_width = 0, max_width = 0;
  bool virtual_function = false;  // an SR-IOV VF (it has a physfn link)
  std::vector<std::string> children;  // functions on the bus below a bridge, by BDF

  bool bridge() const { return (cls >> 8) == 0x0604 || (cls >> 8) == 0x0609; }
  // "0000:1b:00" (bus and device, without the function).
  std::string slot() const { return bdf.substr(0, bdf.size() - 2); }
  std::string id_text() const;  // "10de:2330"
};

struct PciTree {
  std::map<std::string, PciFunction> functions;  // by BDF
  std::vector<std::string> roots;                // functions on a root bus, by BDF
  const PciFunction* find(const std::string& bdf) const;
};

PciTree scan_pci(const SysfsTree& tree);

// The PCIe generation of a link speed attribute ("32.0 GT/s PCIe" -> 5); 0 when unknown.
int pcie_generation(const std::string& speed);

// The BDF of the PCI function nearest above a /sys path ("" when there is none).
std::string function_above(const std::string& path);

// Class devices below PCI functions: for each class folder entry (/sys/class/net/eth0,
// /sys/block/vda), the function it belongs to and its resolved path. Virtual devices
// (under /sys/devices/virtual) are left out.
struct ClassDevice {
  std::string name;  // "eth0"
  std::string path;  // resolved, "/sys/devices/.../net/eth0"
  std::string bdf;   // the function above
};
std::vector<ClassDevice> class_devices(const SysfsTree& tree, const std::string& folder);

}  // namespace iowall::discover
