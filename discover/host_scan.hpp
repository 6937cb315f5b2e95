// The host side of a machine: its sockets (physical_package_id of each online CPU), the
// physical cores of each (distinct die and core ids), the NUMA nodes on each socket (the
// package most of a node's CPUs are on) and their memory (the nodes' MemTotal), and the
// CPU's model name from /proc/cpuinfo.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "discover/sysfs_tree.hpp"

namespace iowall::discover {

struct SocketInfo {
  int package = 0;           // physical_package_id
  int cpus = 0;              // online logical CPUs
  int cores = 0;             // physical cores (distinct die and core ids)
  std::vector<int> nodes;    // NUMA nodes on this socket
  long long memory_kib = 0;  // MemTotal of those nodes
  long long base_khz = 0;    // cpufreq base_frequency of its first CPU (0: not known)
  std::string source;        // the files the socket was read from
};

struct HostInfo {
  std::vector<SocketInfo> sockets;  // by package id
  std::map<int, int> node_socket;   // NUMA node -> index into sockets
  std::string model_name;           // /proc/cpuinfo "model name" ("" when not known)
  std::vector<std::string> sources;
  std::vector<std::string> notes;
};

HostInfo scan_host(const SysfsTree& tree);

// "0-3,8,10-11" -> {0,1,2,3,8,10,11}.
std::vector<int> parse_cpulist(const std::string& text);

}  // namespace iowall::discover
