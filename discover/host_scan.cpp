#include "discover/host_scan.hpp"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

namespace iowall::discover {
namespace {

int number_after(const std::string& name, const char* prefix) {
  const std::size_t n = std::char_traits<char>::length(prefix);
  if (name.size() <= n || name.compare(0, n, prefix) != 0) return -1;
  for (std::size_t i = n; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return -1;
  return std::atoi(name.c_str() + n);
}

long long mem_total_kib(const std::string& meminfo) {
  // "MemTotal:  24684084 kB" (/proc/meminfo) or "Node 0 MemTotal:  14117068 kB" (per node).
  std::istringstream in(meminfo);
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find("MemTotal:");
    if (at == std::string::npos) continue;
    return std::atoll(line.c_str() + at + 9);
  }
  return 0;
}

std::string gib_text(long long kib) { return fmt::format("{:.1f} GiB", static_cast<double>(kib) / (1024.0 * 1024.0)); }

}  // namespace

std::vector<int> parse_cpulist(const std::string& text) {
  std::vector<int> out;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    if (part.empty()) continue;
    const auto dash = part.find('-');
    const int a = std::atoi(part.c_str());
    const int b = dash == std::string::npos ? a : std::atoi(part.c_str() + dash + 1);
    for (int c = a; c <= b && c - a < 1 << 16; ++c) out.push_back(c);
  }
  return out;
}

HostInfo scan_host(const SysfsTree& tree) {
  HostInfo h;
  const std::string cpu_dir = "/sys/devices/system/cpu";
  std::set<int> online;
  if (const auto text = tree.read(cpu_dir + "/online"))
    for (int c : parse_cpulist(*text)) online.insert(c);

  // CPU -> package, and each package's distinct (die, core).
  std::map<int, int> cpu_package;
  std::map<int, std::set<std::pair<int, int>>> package_cores;
  std::map<int, int> package_cpus, package_first;
  for (const std::string& name : tree.list(cpu_dir)) {
    const int cpu = number_after(name, "cpu");
    if (cpu < 0 || (!online.empty() && !online.count(cpu))) continue;
    const std::string topo = cpu_dir + "/" + name + "/topology/";
    const auto pkg_text = tree.read(topo + "physical_package_id");
    const int pkg = pkg_text ? std::atoi(pkg_text->c_str()) : 0;
    const auto core_text = tree.read(topo + "core_id");
    const auto die_text = tree.read(topo + "die_id");
    const int core = core_text ? std::atoi(core_text->c_str()) : cpu;
    const int die = die_text ? std::atoi(die_text->c_str()) : 0;
    cpu_package[cpu] = pkg;
    package_cores[pkg].insert({die, core});
    ++package_cpus[pkg];
    if (!package_first.count(pkg) || cpu < package_first[pkg]) package_first[pkg] = cpu;
  }
  if (cpu_package.empty()) {
    // No CPU folders (a recording without them): one socket of one core, said so.
    package_cores[0].insert({0, 0});
    package_cpus[0] = 1;
    package_first[0] = 0;
    h.notes.push_back("no CPUs under /sys/devices/system/cpu: one socket of one core assumed; set cpu0's cores");
  }
  std::map<int, int> package_index;
  for (const auto& [pkg, cores] : package_cores) {
    SocketInfo s;
    s.package = pkg;
    s.cpus = package_cpus[pkg];
    s.cores = static_cast<int>(cores.size());
    const std::string freq = fmt::format("{}/cpu{}/cpufreq/base_frequency", cpu_dir, package_first[pkg]);
    if (const auto khz = tree.read(freq)) s.base_khz = std::atoll(khz->c_str());
    s.source = fmt::format("{0}/cpu*/topology/physical_package_id = {1} ({2} online CPUs; {3} physical cores by "
                           "distinct die_id and core_id)",
                           cpu_dir, pkg, s.cpus, s.cores);
    package_index[pkg] = static_cast<int>(h.sockets.size());
    h.sockets.push_back(std::move(s));
  }

  // NUMA nodes: the socket most of a node's CPUs are on; its memory goes to that socket.
  const std::string node_dir = "/sys/devices/system/node";
  long long nodes_kib = 0;
  for (const std::string& name : tree.list(node_dir)) {
    const int node = number_after(name, "node");
    if (node < 0) continue;
    const std::string dir = node_dir + "/" + name;
    const std::vector<int> cpus = parse_cpulist(tree.read(dir + "/cpulist").value_or(""));
    const long long kib = mem_total_kib(tree.read(dir + "/meminfo").value_or(""));
    std::map<int, int> votes;
    for (int c : cpus)
      if (cpu_package.count(c)) ++votes[cpu_package[c]];
    if (votes.empty()) {
      if (kib > 0)
        h.notes.push_back(fmt::format("NUMA node {} has {} of memory and no CPUs (a CXL or HBM memory node): not modelled",
                                      node, gib_text(kib)));
      continue;
    }
    const int pkg = std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) {
                      return a.second < b.second;
                    })->first;
    const int s = package_index.at(pkg);
    h.node_socket[node] = s;
    h.sockets[static_cast<std::size_t>(s)].nodes.push_back(node);
    h.sockets[static_cast<std::size_t>(s)].memory_kib += kib;
    nodes_kib += kib;
    h.sources.push_back(fmt::format("NUMA node {}: {}/cpulist (on socket {}), {}/meminfo MemTotal {} KiB", node, dir,
                                    s, dir, kib));
  }
  const long long proc_kib = mem_total_kib(tree.read("/proc/meminfo").value_or(""));
  if (h.sockets.size() == 1 && proc_kib > nodes_kib) {
    // One socket: the machine's MemTotal holds memory the node files may not (memory added
    // to a VM after boot shows in /proc/meminfo).
    h.sockets[0].memory_kib = proc_kib;
    h.sources.push_back(fmt::format("memory: /proc/meminfo MemTotal {} KiB{}", proc_kib,
                                    nodes_kib > 0 ? fmt::format(" (the NUMA nodes' MemTotal says {}: memory added "
                                                                "after boot shows only in /proc/meminfo)",
                                                                gib_text(nodes_kib))
                                                  : ""));
  } else if (nodes_kib == 0 && proc_kib > 0) {
    for (SocketInfo& s : h.sockets) s.memory_kib = proc_kib / static_cast<long long>(h.sockets.size());
    h.sources.push_back(fmt::format("memory: /proc/meminfo MemTotal {} KiB, shared evenly by the sockets (no NUMA nodes)",
                                    proc_kib));
  }

  // The CPU's model name: the first "model name" line of /proc/cpuinfo.
  std::istringstream cpuinfo(tree.read("/proc/cpuinfo").value_or(""));
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string v = line.substr(colon + 1);
    v.erase(0, v.find_first_not_of(" \t"));
    h.model_name = v;
    break;
  }
  return h;
}

}  // namespace iowall::discover
