#include "discover/pci_scan.hpp"

#include <algorithm>
#include <cstdlib>
#include <regex>

#include <fmt/format.h>

namespace iowall::discover {
namespace {

bool is_bdf(const std::string& s) {
  static const std::regex re("^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]$");
  return std::regex_match(s, re);
}

unsigned hex_value(const std::optional<std::string>& text) {
  if (!text || text->empty()) return 0;
  return static_cast<unsigned>(std::strtoul(text->c_str(), nullptr, 16));
}

int int_value(const std::optional<std::string>& text, int fallback) {
  if (!text || text->empty()) return fallback;
  char* end = nullptr;
  const long v = std::strtol(text->c_str(), &end, 10);
  return end == text->c_str() ? fallback : static_cast<int>(v);
}

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    const std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (!part.empty()) out.push_back(part);
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return out;
}

}  // namespace

std::string PciFunction::id_text() const { return fmt::format("{:04x}:{:04x}", vendor, device); }

const PciFunction* PciTree::find(const std::string& bdf) const {
  const auto it = functions.find(bdf);
  return it == functions.end() ? nullptr : &it->second;
}

int pcie_generation(const std::string& speed) {
  // Documentation/ABI/testing/sysfs-bus-pci: "2.5 GT/s", ..., "64.0 GT/s" (newer kernels add " PCIe").
  const double gts = std::strtod(speed.c_str(), nullptr);
  if (gts >= 60) return 6;
  if (gts >= 30) return 5;
  if (gts >= 15) return 4;
  if (gts >= 7.5) return 3;
  if (gts >= 4.5) return 2;
  if (gts >= 2) return 1;
  return 0;
}

std::string function_above(const std::string& path) {
  const std::vector<std::string> parts = components(path);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (is_bdf(*it)) return *it;
  return "";
}

PciTree scan_pci(const SysfsTree& tree) {
  PciTree t;
  for (const std::string& name : tree.list("/sys/bus/pci/devices")) {
    const auto path = tree.resolve("/sys/bus/pci/devices/" + name);
    if (!path || !is_bdf(name)) continue;
    PciFunction f;
    f.bdf = name;
    f.path = *path;
    const std::vector<std::string> parts = components(*path);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].rfind("pci", 0) == 0 && f.root_bus.empty()) f.root_bus = parts[i];
      if (parts[i] == name && i > 0 && is_bdf(parts[i - 1])) f.parent = parts[i - 1];
    }
    const std::string& p = f.path;
    f.cls = hex_value(tree.read(p + "/class"));
    f.vendor = hex_value(tree.read(p + "/vendor"));
    f.device = hex_value(tree.read(p + "/device"));
    f.numa_node = int_value(tree.read(p + "/numa_node"), -1);
    f.current_speed = tree.read(p + "/current_link_speed").value_or("");
    f.max_speed = tree.read(p + "/max_link_speed").value_or("");
    f.current_width = int_value(tree.read(p + "/current_link_width"), 0);
    f.max_width = int_value(tree.read(p + "/max_link_width"), 0);
    f.virtual_function = tree.exists(p + "/physfn");
    t.functions[name] = std::move(f);
  }
  for (auto& [bdf, f] : t.functions) {
    if (!f.parent.empty() && t.functions.count(f.parent))
      t.functions[f.parent].children.push_back(bdf);
    else {
      f.parent.clear();
      t.roots.push_back(bdf);
    }
  }
  for (auto& [bdf, f] : t.functions) std::sort(f.children.begin(), f.children.end());
  std::sort(t.roots.begin(), t.roots.end());
  return t;
}

std::vector<ClassDevice> class_devices(const SysfsTree& tree, const std::string& folder) {
  std::vector<ClassDevice> out;
  for (const std::string& name : tree.list(folder)) {
    const auto path = tree.resolve(folder + "/" + name);
    if (!path || path->rfind("/sys/devices/virtual/", 0) == 0) continue;
    const std::string bdf = function_above(*path);
    if (bdf.empty()) continue;
    out.push_back({name, *path, bdf});
  }
  return out;
}

}  // namespace iowall::discover
