#include "discover/endpoints.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <regex>

#include <fmt/format.h>

#include "discover/parts.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/units.hpp"
#include "sim/core/text.hpp"

namespace iowall::discover {
namespace {

using nlohmann::json;

long long number(const std::optional<std::string>& text) { return text ? std::atoll(text->c_str()) : 0; }

// An integer parameter of a model as a preset (or else the model's default) sets it.
long long preset_int(const std::string& model, const std::string& preset, const std::string& key) {
  const ModelEntry* e = ModelRegistry::instance().find("device", model);
  if (!e) return 0;
  if (!preset.empty()) {
    const auto it = e->presets.find(preset);
    if (it != e->presets.end() && it->second.values.contains(key) && it->second.values[key].is_number_integer())
      return it->second.values[key].get<long long>();
  }
  for (const ParamInfo& p : e->describe().params)
    if (p.name == key) return std::atoll(p.default_text.c_str());
  return 0;
}

json start(const std::string& id, const std::string& model, const PartMatch& m) {
  json d = {{"id", id}, {"model", model}};
  if (!m.preset.empty()) d["preset"] = m.preset;
  for (const auto& [k, v] : m.values.items()) d[k] = v;
  return d;
}

std::string identity(const PciFunction& f, const PartMatch& m) {
  std::string s = fmt::format("{} class 0x{:06x}, {} = {}", f.path, f.cls, f.id_text(), m.name);
  if (!m.preset.empty()) s += fmt::format(" -> preset {} ({})", m.preset, m.source);
  if (!m.note.empty()) s += "; " + m.note;
  return s;
}

// A block device's numbers: capacity (size in 512-byte sectors), logical block size, the
// block layer's largest request (max_sectors_kb) and the hardware queues (one mq/N folder each).
struct Disk {
  std::string path;
  long long bytes = 0, lba = 0, max_kib = 0;
  int queues = 0;
};
Disk read_disk(const SysfsTree& tree, const std::string& path) {
  Disk d;
  d.path = path;
  d.bytes = number(tree.read(path + "/size")) * 512;
  d.lba = number(tree.read(path + "/queue/logical_block_size"));
  d.max_kib = number(tree.read(path + "/queue/max_sectors_kb"));
  for (const std::string& q : tree.list(path + "/mq"))
    if (!q.empty() && std::all_of(q.begin(), q.end(), [](char c) { return c >= '0' && c <= '9'; })) ++d.queues;
  return d;
}

// Capacity, block size, request size and queues from the disks (namespaces) of a drive.
void put_disks(json& d, std::vector<std::string>& sources, const std::string& id, const std::vector<Disk>& disks,
               bool request_size) {
  if (disks.empty()) return;
  long long bytes = 0;
  for (const Disk& k : disks) bytes += k.bytes;
  const Disk& first = disks.front();
  if (bytes > 0) d["capacity"] = to_string(Bytes(bytes));
  if (first.lba > 0) d["lba_size"] = to_string(Bytes(first.lba));
  if (request_size && first.max_kib > 0 && first.lba > 0) {
    const long long mdts = first.max_kib * 1024 / first.lba * first.lba;
    if (mdts > 0) d["mdts"] = to_string(Bytes(mdts));
  }
  // The queues are the host driver's (nvme_ssd's "driver" child component).
  if (first.queues > 0) d["driver"] = json{{"io_queues", first.queues}};
  std::string names;
  for (const Disk& k : disks) names += (names.empty() ? "" : ", ") + k.path;
  sources.push_back(fmt::format("{}: capacity from size ({} in all), lba_size from queue/logical_block_size {}, "
                                "{}driver.io_queues from the mq/ folders ({}) of {}",
                                id, to_string(Bytes(bytes)), first.lba,
                                request_size ? fmt::format("mdts from queue/max_sectors_kb {}, ", first.max_kib) : "",
                                first.queues, names));
}

// The host creates no more I/O queues than the controller has: a preset that says fewer
// is raised to what the machine shows.
void fit_queues(json& d, const std::string& preset) {
  if (!d.contains("driver") || !d["driver"].contains("io_queues")) return;
  const long long have = preset_int("nvme_ssd", preset, "max_queues");
  if (d["driver"]["io_queues"].get<long long>() > have) d["max_queues"] = d["driver"]["io_queues"];
}

}  // namespace

ClassIndex ClassIndex::read(const SysfsTree& tree) {
  ClassIndex i;
  i.blocks = class_devices(tree, "/sys/block");
  i.nvme = class_devices(tree, "/sys/class/nvme");
  i.net = class_devices(tree, "/sys/class/net");
  i.infiniband = class_devices(tree, "/sys/class/infiniband");
  return i;
}

std::string kernel_name(const PciFunction& f, const ClassIndex& index, NameOf what) {
  const std::vector<const std::vector<ClassDevice>*> lists =
      what == NameOf::nvme   ? std::vector<const std::vector<ClassDevice>*>{&index.nvme}
      : what == NameOf::disk ? std::vector<const std::vector<ClassDevice>*>{&index.blocks}
                             : std::vector<const std::vector<ClassDevice>*>{&index.infiniband, &index.net};
  for (const auto* list : lists)
    for (const ClassDevice& c : *list)
      if (c.bdf == f.bdf) return c.name;
  return "";
}

Endpoint gpu_endpoint(const std::string& id, const PciFunction& f, const NvidiaSmi& smi) {
  const auto product = smi.product.find(f.bdf);
  const PartMatch m = match_gpu(f.vendor, f.device, product == smi.product.end() ? "" : product->second);
  Endpoint e;
  e.device = start(id, "gpu", m);
  e.sources.push_back(id + ": " + identity(f, m));
  if (m.preset.empty()) {
    const auto mem = smi.memory.find(f.bdf);
    if (mem != smi.memory.end()) {
      Bytes b;
      if (parse_bytes(mem->second, b).ok) {
        e.device["hbm_capacity"] = to_string(b);
        e.sources.push_back(fmt::format("{}: hbm_capacity from nvidia-smi -q FB Memory Usage Total {}", id, mem->second));
      }
    }
    e.note = fmt::format("{} is not a known GPU: the gpu model's defaults (H100 SXM figures) stand in; set a preset "
                         "(iowall models gpu) or hbm_bandwidth, hbm_capacity, copy_engines and copy_engine_bandwidth",
                         m.name);
  }
  return e;
}

Endpoint nvme_endpoint(const std::string& id, const PciFunction& f, const SysfsTree& tree, const ClassIndex& index) {
  std::string ctrl_path, model;
  for (const ClassDevice& c : index.nvme)
    if (c.bdf == f.bdf) {
      ctrl_path = c.path;
      model = trim(tree.read(c.path + "/model").value_or(""));
      break;
    }
  const PartMatch m = match_nvme(f.vendor, f.device, model);
  Endpoint e;
  e.device = start(id, "nvme_ssd", m);
  e.sources.push_back(id + ": " + identity(f, m) + (ctrl_path.empty() ? "" : fmt::format("; controller {}", ctrl_path)));
  // Namespaces: below the controller (nvme0n1, or nvme0c0n1 with native multipath), or
  // the block devices under this function.
  std::vector<std::string> paths;
  static const std::regex ns("^nvme[0-9]+(c[0-9]+)?n[0-9]+$");
  if (!ctrl_path.empty())
    for (const std::string& name : tree.list(ctrl_path))
      if (std::regex_match(name, ns)) paths.push_back(ctrl_path + "/" + name);
  for (const ClassDevice& b : index.blocks)
    if (b.bdf == f.bdf && std::find(paths.begin(), paths.end(), b.path) == paths.end()) paths.push_back(b.path);
  std::sort(paths.begin(), paths.end());
  std::vector<Disk> disks;
  for (const std::string& p : paths) disks.push_back(read_disk(tree, p));
  put_disks(e.device, e.sources, id, disks, true);
  fit_queues(e.device, m.preset);
  if (m.preset.empty())
    e.note = fmt::format("{} is not a known drive: the nvme_ssd defaults (Micron 9550 figures) stand in; set a preset "
                         "(iowall models nvme_ssd) or read_bandwidth, write_bandwidth, max_iops and read_latency, or "
                         "calibrate it (iowall measure, iowall calibrate)",
                         m.name);
  if (disks.empty()) {
    const std::string miss = "no namespace found: capacity, lba_size and queues are the preset's or the model's";
    e.note = e.note.empty() ? miss : e.note + "; " + miss;
  }
  return e;
}

Endpoint virtio_disk_endpoint(const std::string& id, const PciFunction& f, const SysfsTree& tree,
                              const ClassIndex& index) {
  Endpoint e;
  // The read service of the project's VMs' virtio disks: served in batches by one backend
  // thread, with the wake-up, bandwidth and command rate the CPU machine's calibration fitted.
  e.device = {{"id", id},
              {"model", "nvme_ssd"},
              {"read_service", "batched"},
              {"read_latency", "15.19 us"},
              {"read_bandwidth", "2.712 GB/s"},
              {"max_iops", "140.1 K/s"},
              {"latency_sigma", 0.0995},
              {"mdts", "128 KiB"}};
  e.sources.push_back(fmt::format("{}: {} class 0x{:06x}, {} = virtio block device: an nvme_ssd with the batched read "
                                  "service and the storage fit of reports/calibration/cpu-machine/profile.json "
                                  "(reports/calibration/README.md)",
                                  id, f.path, f.cls, f.id_text()));
  std::vector<Disk> disks;
  for (const ClassDevice& b : index.blocks)
    if (b.bdf == f.bdf) disks.push_back(read_disk(tree, b.path));
  put_disks(e.device, e.sources, id, disks, false);
  fit_queues(e.device, "");
  e.note = "a virtio disk: the read service, wake-up, bandwidth and command rate are the project's CPU machine's "
           "virtio disk as calibrated; calibrate this one (iowall measure, iowall calibrate --emit-topology)";
  return e;
}

Endpoint nic_endpoint(const std::string& id, const PciFunction& f, const SysfsTree& tree, const ClassIndex& index) {
  const PartMatch m = match_nic(f.vendor, f.device);
  Endpoint e;
  e.device = start(id, "nic", m);
  std::vector<std::string> names;
  long long mbps = 0;
  std::string rate_source;
  for (const ClassDevice& c : index.infiniband) {
    if (c.bdf != f.bdf) continue;
    names.push_back(c.name);
    for (const std::string& port : tree.list(c.path + "/ports")) {
      const std::string file = c.path + "/ports/" + port + "/rate";
      const auto rate = tree.read(file);  // "400 Gb/sec (4X NDR)"
      if (!rate || mbps > 0) continue;
      const double gb = std::strtod(rate->c_str(), nullptr);
      if (gb > 0) {
        mbps = std::llround(gb * 1000);
        rate_source = fmt::format("{} \"{}\"", file, *rate);
      }
    }
  }
  for (const ClassDevice& c : index.net) {
    if (c.bdf != f.bdf) continue;
    names.push_back(c.name);
    const auto speed = tree.read(c.path + "/speed");  // Mb/s; -1 or unreadable while the link is down
    if (mbps == 0 && speed && std::atoll(speed->c_str()) > 0) {
      mbps = std::atoll(speed->c_str());
      rate_source = fmt::format("{}/speed {} Mb/s", c.path, *speed);
    }
  }
  std::string kernel;
  for (const std::string& n : names) kernel += (kernel.empty() ? "" : ", ") + n;
  e.sources.push_back(id + ": " + identity(f, m) + (kernel.empty() ? "" : fmt::format(" ({})", kernel)));
  if (mbps > 0) {
    e.device["line_rate"] = mbps % 1000 == 0 ? fmt::format("{} Gb/s", mbps / 1000) : fmt::format("{} Mb/s", mbps);
    e.sources.push_back(fmt::format("{}: line_rate from {}", id, rate_source));
  }
  std::vector<std::string> notes;
  if (f.vendor == 0x1af4)
    notes.push_back("a virtio network device, not RDMA-capable: keep it out of RDMA paths (the nic model's defaults, "
                    "ConnectX-7 figures, stand in)");
  else if (m.preset.empty())
    notes.push_back(fmt::format("{} is not a known RDMA adapter: the nic model's defaults (ConnectX-7 figures) stand in; "
                                "set a preset (iowall models nic) or message_rate and pipeline_latency",
                                m.name));
  if (mbps == 0) notes.push_back("no link speed readable (a link down, or an emulated adapter): set line_rate");
  for (const std::string& n : notes) e.note += (e.note.empty() ? "" : "; ") + n;
  return e;
}

}  // namespace iowall::discover
