#include "discover/topology_builder.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "discover/endpoints.hpp"
#include "discover/host_part.hpp"
#include "discover/nvlink_part.hpp"
#include "discover/part.hpp"
#include "discover/parts.hpp"
#include "discover/pci_scan.hpp"

namespace iowall::discover {
namespace {

using nlohmann::json;

enum class Kind { none, gpu, nvme, virtio_disk, nic };

Kind classify(const PciFunction& f) {
  if (f.virtual_function) return Kind::none;
  const unsigned base = f.cls >> 16, sub = (f.cls >> 8) & 0xff;
  if (f.vendor == 0x10de && base == 0x03) return Kind::gpu;  // VGA or 3D controller
  if (base == 0x01 && sub == 0x08) return Kind::nvme;         // non-volatile memory controller
  if (f.vendor == 0x1af4 && (f.device == 0x1001 || f.device == 0x1042)) return Kind::virtio_disk;
  if (base == 0x02) return Kind::nic;  // Ethernet, InfiniBand
  return Kind::none;
}

// The widest valid PCIe link width not above `lanes`.
int valid_lanes(int lanes) {
  int best = 1;
  for (int w : {1, 2, 4, 8, 12, 16, 32})
    if (w <= lanes) best = w;
  return best;
}

// A kernel name usable as a device id (letters, digits, '_' and '-', not starting with a
// digit or '-'), or "" when it is not one.
std::string valid_id(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) || name[0] == '-') return "";
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return "";
  return name;
}

std::string plural(std::size_t n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

class Builder {
public:
  Builder(const SysfsTree& tree, const NvidiaSmi& smi)
      : tree_(tree), smi_(smi), pci_(scan_pci(tree)), host_(scan_host(tree)), index_(ClassIndex::read(tree)) {}

  Discovered run(std::vector<std::string> leading) {
    classify_all();
    assign_ids();
    Part host = host_part(host_);
    add_pcie();
    for (json& d : host.devices)
      if (d["model"] == "root_complex") {
        const std::size_t s = std::stoul(d["id"].get<std::string>().substr(2));
        d["root_ports"] = std::clamp(s < rp_used_.size() ? rp_used_[s] : 0, 1, 64);
      }
    std::vector<std::pair<std::string, std::string>> gpus;
    for (const auto& [bdf, k] : kind_)
      if (k == Kind::gpu && placed_.count(id_.at(bdf))) gpus.emplace_back(bdf, id_.at(bdf));
    const Part nvlink = nvlink_part(smi_, gpus);
    Discovered d;
    json sources = json::array(), devices = json::array(), links = json::array();
    for (const std::string& s : leading) sources.push_back(s);
    for (const std::string& s : host_.sources) sources.push_back(s);
    for (const std::string& n : host_.notes) d.notes.push_back("host: " + n);
    for (const Part* p : {static_cast<const Part*>(&host), static_cast<const Part*>(&pcie_), &nvlink}) {
      for (const std::string& s : p->sources) sources.push_back(s);
      for (const json& x : p->devices) devices.push_back(x);
      for (const json& x : p->links) links.push_back(x);
      d.notes.insert(d.notes.end(), p->notes.begin(), p->notes.end());
    }
    d.topology = {{"name", "discovered"},
                  {"description", summary()},
                  {"sources", sources},
                  {"devices", devices},
                  {"links", links}};
    return d;
  }

private:
  const PciFunction& fn(const std::string& bdf) const { return pci_.functions.at(bdf); }
  Kind kind(const std::string& bdf) const {
    const auto it = kind_.find(bdf);
    return it == kind_.end() ? Kind::none : it->second;
  }

  void classify_all() {
    for (const auto& [bdf, f] : pci_.functions) {
      Kind k = classify(f);
      // A multi-port adapter shows one function per port behind one link: one nic for it.
      if (k == Kind::nic && bdf.back() != '0')
        for (const auto& [other, g] : pci_.functions)
          if (other < bdf && g.slot() == f.slot() && classify(g) == Kind::nic) {
            pcie_.sources.push_back(fmt::format("{}: another port of the adapter at {} (one link): not a device of its own",
                                           f.path, other));
            k = Kind::none;
            break;
          }
      if (k != Kind::none) kind_[bdf] = k;
    }
  }

  void assign_ids() {
    std::set<std::string> taken;
    int gpus = 0, nics = 0, ssds = 0, disks = 0;
    auto unique = [&](std::string id) {
      while (taken.count(id)) id += "_";
      taken.insert(id);
      return id;
    };
    for (const auto& [bdf, k] : kind_) {
      const PciFunction& f = fn(bdf);
      std::string id;
      switch (k) {
        case Kind::gpu: id = fmt::format("gpu{}", gpus++); break;
        case Kind::nic: id = valid_id(kernel_name(f, index_, NameOf::nic)); if (id.empty()) id = fmt::format("nic{}", nics++); break;
        case Kind::nvme: id = valid_id(kernel_name(f, index_, NameOf::nvme)); if (id.empty()) id = fmt::format("ssd{}", ssds++); break;
        case Kind::virtio_disk: id = valid_id(kernel_name(f, index_, NameOf::disk)); if (id.empty()) id = fmt::format("disk{}", disks++); break;
        case Kind::none: break;
      }
      id_[bdf] = unique(id);
    }
  }

  bool useful(const std::string& bdf) {
    const auto it = useful_.find(bdf);
    if (it != useful_.end()) return it->second;
    bool u = kind(bdf) != Kind::none;
    for (const std::string& c : fn(bdf).children) u = useful(c) || u;
    useful_[bdf] = u;
    return u;
  }

  int socket_of(const std::string& bdf) const {
    std::function<int(const std::string&)> node = [&](const std::string& b) {
      const PciFunction& f = fn(b);
      if (f.numa_node >= 0) return f.numa_node;
      for (const std::string& c : f.children)
        if (const int n = node(c); n >= 0) return n;
      return -1;
    };
    const int n = node(bdf);
    const auto it = host_.node_socket.find(n);
    return it == host_.node_socket.end() ? 0 : it->second;
  }

  static bool switch_upstream(const PciTree& pci, const PciFunction& f) {
    if (!f.bridge()) return false;
    for (const std::string& c : f.children)
      if (pci.functions.at(c).bridge()) return true;
    return false;
  }

  void add_pcie() {
    rp_used_.assign(host_.sockets.size(), 0);
    bool unplaced = false;
    for (std::size_t s = 0; s < host_.sockets.size(); ++s)
      for (const std::string& r : pci_.roots) {
        if (static_cast<std::size_t>(socket_of(r)) != s || !useful(r)) continue;
        const PciFunction& f = fn(r);
        if (host_.sockets.size() > 1 && f.numa_node < 0) unplaced = true;
        const std::string port = fmt::format("rc{}.rp{}", s, rp_used_[s]++);
        // A bridge on a root bus is a root port: what is below it goes on rcN.rpK.
        if (kind(r) != Kind::none)
          endpoint(f, port, nullptr);
        else
          below(f, port);
      }
    if (unplaced)
      pcie_.notes.push_back("some PCI devices have no numa_node (-1): they are placed under socket 0; move them with "
                       "iowall topo derive --move if they belong elsewhere");
  }

  // What hangs below `bridge` goes on `port` (the link below a root or downstream port).
  void below(const PciFunction& bridge, const std::string& port) {
    std::vector<std::string> children;
    for (const std::string& c : bridge.children)
      if (useful(c)) children.push_back(c);
    bool used = false;
    for (const std::string& c : children) {
      const PciFunction& f = fn(c);
      if (used) {
        pcie_.sources.push_back(fmt::format("{}: shares the link below {} with a device already placed: left out", f.path,
                                       bridge.bdf));
        continue;
      }
      used = true;
      if (kind(c) != Kind::none)
        endpoint(f, port, &bridge);
      else if (switch_upstream(pci_, f))
        make_switch(f, port, &bridge);
      else
        below(f, port);
    }
  }

  void make_switch(const PciFunction& up, const std::string& port, const PciFunction* above) {
    const std::string id = fmt::format("sw{}", switches_++);
    std::vector<std::string> downs, extra;
    int gen = 0;
    for (const std::string& c : up.children) {
      const PciFunction& f = fn(c);
      if (f.bridge()) {
        downs.push_back(c);
        gen = std::max(gen, pcie_generation(f.max_speed));
      } else if (useful(c)) {
        extra.push_back(c);
      }
    }
    if (gen == 0) gen = pcie_generation(up.max_speed);
    const PartMatch m = match_switch(up.vendor, up.device, gen);
    json sw = {{"id", id}, {"model", "pcie_switch"}};
    if (!m.preset.empty()) sw["preset"] = m.preset;
    sw["downstream_ports"] = std::clamp(static_cast<int>(downs.size() + extra.size()), 1, 128);
    pcie_.sources.push_back(fmt::format("{}: {} (upstream port) class 0x{:06x}, {} = {}{}; {} below it", id, up.path, up.cls,
                                   up.id_text(), m.name,
                                   m.preset.empty() ? "" : fmt::format(" -> preset {} ({})", m.preset, m.source),
                                   plural(downs.size(), "downstream port", "downstream ports")));
    if (m.preset.empty())
      pcie_.describe(sw, fmt::format("{} is not a known switch: the pcie_switch defaults (PEX88000 latency) stand in; set "
                               "latency and forwarding",
                               m.name));
    else if (!m.note.empty())
      pcie_.describe(sw, m.note);
    pcie_.devices.push_back(sw);
    pcie_.links.push_back(link(up, above, port, id + ".up"));
    for (std::size_t k = 0; k < downs.size(); ++k)
      if (useful(downs[k])) below(fn(downs[k]), fmt::format("{}.dn{}", id, k));
    for (std::size_t j = 0; j < extra.size(); ++j)
      if (kind(extra[j]) != Kind::none) endpoint(fn(extra[j]), fmt::format("{}.dn{}", id, downs.size() + j), &up);
  }

  void endpoint(const PciFunction& f, const std::string& port, const PciFunction* above) {
    const std::string id = id_.at(f.bdf);
    Endpoint e;
    switch (kind(f.bdf)) {
      case Kind::gpu: e = gpu_endpoint(id, f, smi_); ++gpus_; break;
      case Kind::nvme: e = nvme_endpoint(id, f, tree_, index_); ++drives_; break;
      case Kind::virtio_disk: e = virtio_disk_endpoint(id, f, tree_, index_); ++drives_; break;
      case Kind::nic: e = nic_endpoint(id, f, tree_, index_); ++nics_; break;
      case Kind::none: return;
    }
    if (!e.note.empty()) pcie_.describe(e.device, e.note);
    pcie_.devices.push_back(e.device);
    placed_.insert(id);
    for (std::string& s : e.sources) pcie_.sources.push_back(std::move(s));
    pcie_.links.push_back(link(f, above, port, id + ".up"));
  }

  // The PCIe link between `f` and the port above it (`above`: the bridge of that port,
  // nullptr for a device on a root bus).
  json link(const PciFunction& f, const PciFunction* above, const std::string& a, const std::string& b) {
    const int dev_max = pcie_generation(f.max_speed), port_max = above ? pcie_generation(above->max_speed) : 0;
    const int current = pcie_generation(f.current_speed);
    int gen = dev_max && port_max ? std::min(dev_max, port_max) : std::max(dev_max, port_max);
    if (gen == 0) gen = current;
    const int port_width = above ? above->max_width : 0;
    const int widest = f.max_width && port_width ? std::min(f.max_width, port_width) : std::max(f.max_width, port_width);
    int lanes = f.current_width > 0 ? f.current_width : widest;
    const std::string dev = b.substr(0, b.find('.'));
    if (gen == 0 && lanes == 0) {
      pcie_.sources.push_back(fmt::format("{} -- {}: {} has no PCIe link attributes (an emulated or integrated device): "
                                     "Gen5 x16, a link that does not limit it (as topologies/gpu-machine.json)",
                                     a, b, f.path));
      return {{"a", a}, {"b", b}, {"pcie", {{"gen", 5}, {"lanes", 16}}}};
    }
    std::string src = fmt::format("{} -- {}: Gen{} from max_link_speed \"{}\"", a, b, gen ? gen : 5, f.max_speed);
    if (above) src += fmt::format(" and the port's ({}) \"{}\"", above->bdf, above->max_speed);
    src += fmt::format(", x{} from current_link_width of {}", lanes ? lanes : 16, f.path);
    if (current && current < gen)
      src += fmt::format(" (current_link_speed \"{}\": idle power saving, or a link trained down: check under load "
                         "with lspci -vv)",
                         f.current_speed);
    pcie_.sources.push_back(src);
    if (gen == 0) {
      gen = 5;
      pcie_.notes.push_back(fmt::format("{}: no link speed readable for {}: Gen5 assumed, set the link's gen", dev, f.bdf));
    }
    if (lanes == 0) {
      lanes = 16;
      pcie_.notes.push_back(fmt::format("{}: no link width readable for {}: x16 assumed, set the link's lanes", dev, f.bdf));
    }
    if (widest > 0 && lanes < widest)
      pcie_.notes.push_back(fmt::format("{}: its link runs x{} where both ends support x{} (a narrower slot or riser, or a "
                                   "link trained down)",
                                   dev, lanes, widest));
    return {{"a", a}, {"b", b}, {"pcie", {{"gen", std::min(gen, 6)}, {"lanes", valid_lanes(lanes)}}}};
  }

  std::string summary() const {
    const PartMatch cpu = match_cpu(host_.model_name);
    long long kib = 0;
    for (const SocketInfo& s : host_.sockets) kib += s.memory_kib;
    const int cores = host_.sockets.empty() ? 0 : host_.sockets.front().cores;
    return fmt::format("Discovered by iowall topo discover: {} ({}, {} cores{}), {:.1f} GiB of memory, {}, {}, {}, {}",
                       plural(host_.sockets.size(), "socket", "sockets"),
                       host_.model_name.empty() ? std::string("CPU model not known") : host_.model_name, cores,
                       host_.sockets.size() > 1 ? " each" : "", static_cast<double>(kib) / (1024.0 * 1024.0),
                       plural(static_cast<std::size_t>(gpus_), "GPU", "GPUs"),
                       plural(static_cast<std::size_t>(switches_), "PCIe switch", "PCIe switches"),
                       plural(static_cast<std::size_t>(drives_), "drive", "drives"),
                       plural(static_cast<std::size_t>(nics_), "network adapter", "network adapters"));
  }

  const SysfsTree& tree_;
  const NvidiaSmi& smi_;
  PciTree pci_;
  HostInfo host_;
  ClassIndex index_;
  Part pcie_;  // the PCIe tree below the root complexes
  std::map<std::string, Kind> kind_;
  std::map<std::string, std::string> id_;
  std::map<std::string, bool> useful_;
  std::set<std::string> placed_;  // ids of the endpoints placed in the tree
  std::vector<int> rp_used_;
  int switches_ = 0, gpus_ = 0, drives_ = 0, nics_ = 0;
};

}  // namespace

Discovered build_topology(const SysfsTree& tree, const NvidiaSmi& smi, std::vector<std::string> leading) {
  return Builder(tree, smi).run(std::move(leading));
}

}  // namespace iowall::discover
