#include "discover/discover.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "discover/nvidia_smi.hpp"
#include "discover/sysfs_tree.hpp"
#include "discover/topology_builder.hpp"
#include "sim/core/error.hpp"

namespace iowall::discover {
namespace {

namespace fs = std::filesystem;

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The recorded nvidia-smi outputs of a folder (topo-m.txt, q.txt).
NvidiaSmi recorded_smi(const fs::path& dir, const std::string& shown) {
  std::error_code ec;
  const fs::path q = dir / "q.txt", topo = dir / "topo-m.txt";
  return parse_nvidia_smi(fs::exists(q, ec) ? slurp(q) : "", fs::exists(topo, ec) ? slurp(topo) : "",
                          shown + "/q.txt", shown + "/topo-m.txt");
}

}  // namespace

Discovered discover_topology(const DiscoverOptions& o) {
  fs::path sys = "/sys", proc = "/proc", smi_dir;
  bool recorded = false;
  std::vector<std::string> leading;
  if (!o.sysfs_root.empty()) {
    const fs::path root(o.sysfs_root);
    if (is_dir(root / "sys" / "devices" / "system" / "cpu")) {  // a recording: sys/, proc/, nvidia-smi/
      sys = root / "sys";
      proc = is_dir(root / "proc") ? root / "proc" : fs::path();
      if (is_dir(root / "nvidia-smi")) smi_dir = root / "nvidia-smi";
    } else if (is_dir(root / "devices" / "system" / "cpu")) {  // a tree laid out as /sys
      sys = root;
      proc.clear();
    } else {
      throw InputError("--sysfs-root", "",
                       fmt::format("{} is not a sysfs tree (no devices/system/cpu in it, nor in a sys/ folder of it)",
                                   o.sysfs_root));
    }
    recorded = true;
    leading.push_back("read from a recording of /sys and /proc (scripts/capture-sysfs.sh) with iowall topo discover "
                      "--sysfs-root; the paths below are the machine's own");
  } else {
    leading.push_back("read from the running machine's /sys and /proc by iowall topo discover");
  }
  if (!o.proc_root.empty()) {
    if (!is_dir(o.proc_root)) throw InputError("--proc-root", "", fmt::format("{} is not a folder", o.proc_root));
    proc = o.proc_root;
  }
  NvidiaSmi smi;
  if (!o.nvidia_smi_dir.empty()) {
    if (!is_dir(o.nvidia_smi_dir))
      throw InputError("--nvidia-smi-dir", "", fmt::format("{} is not a folder", o.nvidia_smi_dir));
    std::error_code ec;
    if (!fs::exists(fs::path(o.nvidia_smi_dir) / "q.txt", ec) && !fs::exists(fs::path(o.nvidia_smi_dir) / "topo-m.txt", ec))
      throw InputError("--nvidia-smi-dir", "",
                       fmt::format("{} holds neither q.txt (nvidia-smi -q) nor topo-m.txt (nvidia-smi topo -m)",
                                   o.nvidia_smi_dir));
    smi = recorded_smi(o.nvidia_smi_dir, "recorded");
  } else if (!smi_dir.empty()) {
    smi = recorded_smi(smi_dir, "recorded");
  } else if (!recorded) {
    const auto q = run_nvidia_smi({"-q"});
    const auto topo = run_nvidia_smi({"topo", "-m"});
    if (q || topo) smi = parse_nvidia_smi(q.value_or(""), topo.value_or(""), "run", "run");
  }
  for (const std::string& s : smi.sources) leading.push_back(s);
  const SysfsTree tree(sys, proc, recorded);
  return build_topology(tree, smi, std::move(leading));
}

}  // namespace iowall::discover
