#include "discover/parts.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace iowall::discover {
namespace {

using nlohmann::json;

struct IdEntry {
  unsigned vendor, device;
  const char* preset;
  const char* name;
  const char* values;  // JSON object of parameters beside the preset ("" for none)
  const char* note;
};

constexpr const char* kPciIds = "pci.ids (the PCI ID database of pciutils)";

// GPUs by PCI ID (pci.ids names in brackets).
constexpr IdEntry kGpus[] = {
    {0x10de, 0x2330, "h100_sxm", "NVIDIA H100 SXM5 80GB", "", ""},
    {0x10de, 0x2331, "h100_pcie", "NVIDIA H100 PCIe", "", ""},
    {0x10de, 0x2335, "h200", "NVIDIA H200 SXM 141GB", "", ""},
    {0x10de, 0x233b, "h200", "NVIDIA H200 NVL", "", "the H200 preset (SXM figures) for the NVL card"},
    {0x10de, 0x20b0, "a100_sxm", "NVIDIA A100 SXM4 40GB",
     R"({"hbm_capacity": "40 GB", "hbm_bandwidth": "1555 GB/s"})", "40 GB part: HBM2 1,555 GB/s (NVIDIA A100 datasheet)"},
    {0x10de, 0x20b2, "a100_sxm", "NVIDIA A100 SXM4 80GB", "", ""},
    {0x10de, 0x20b5, "a100_sxm", "NVIDIA A100 PCIe 80GB", R"({"hbm_bandwidth": "1935 GB/s"})",
     "PCIe card: HBM2e 1,935 GB/s (NVIDIA A100 datasheet), otherwise the SXM4 preset"},
    {0x10de, 0x1db1, "v100_sxm", "NVIDIA V100 SXM2 16GB", R"({"hbm_capacity": "16 GB", "bar1_size": "16 GiB"})",
     "16 GB part"},
    {0x10de, 0x1db5, "v100_sxm", "NVIDIA V100 SXM2 32GB", "", ""},
    {0x10de, 0x1db8, "v100_sxm", "NVIDIA V100 SXM3 32GB", "", ""},
    {0x10de, 0x2901, "b200", "NVIDIA B200", "", ""},
};

// nvidia-smi product names, for a GPU whose device ID is not above.
struct NameEntry {
  const char* contains;
  const char* preset;
};
constexpr NameEntry kGpuNames[] = {
    {"H100 80GB HBM3", "h100_sxm"}, {"H100 PCIe", "h100_pcie"}, {"H200", "h200"}, {"A100-SXM4", "a100_sxm"},
    {"V100-SXM", "v100_sxm"},       {"B200", "b200"},
};

// NVMe drives by PCI ID.
constexpr IdEntry kDrives[] = {
    {0x144d, 0xa826, "pm1743", "Samsung PM1743 (NVMe SSD Controller PM174X)", "", ""},
    {0x1344, 0x51bb, "micron_9550", "Micron 9550 PRO", "", ""},
    {0x1344, 0x51bd, "micron_9550", "Micron 9550 MAX", "", "the 9550 PRO preset for the MAX (mixed-use) part"},
    {0x1344, 0x51cd, "micron_9650", "Micron 9650 PRO", "", ""},
    {0x1344, 0x5191, "micron_9200_pro", "Micron 9200 PRO", "", ""},
    {0x8086, 0x4140, "optane_p5800x", "Intel Optane SSD DC P5800X", "", ""},
};

// NVMe drives by the model string the controller reports (nvme id-ctrl MN), where one PCI
// ID covers several products.
struct PartModelEntry {
  const char* contains;
  const char* preset;
  const char* name;
};
constexpr PartModelEntry kDriveModels[] = {
    {"SSDPE21K", "optane_p4800x", "Intel Optane SSD DC P4800X (U.2)"},
    {"SSDPED1K", "optane_p4800x", "Intel Optane SSD DC P4800X (add-in card)"},
    {"SSDPE2KE", "intel_p4600", "Intel SSD DC P4600 (U.2)"},
    {"SSDPEDKE", "intel_p4600", "Intel SSD DC P4600 (add-in card)"},
    {"Samsung SSD 980 PRO", "samsung_980pro", "Samsung 980 PRO"},
    {"Micron_9550", "micron_9550", "Micron 9550"},
    {"Micron_9200", "micron_9200_pro", "Micron 9200"},
    {"KCMYXRUG", "cm7r", "Kioxia CM7-R"},
};

// RDMA network adapters by PCI ID.
constexpr IdEntry kNics[] = {
    {0x15b3, 0x1017, "cx5_100g", "Mellanox ConnectX-5 (MT27800)", "", ""},
    {0x15b3, 0x1019, "cx5_100g", "Mellanox ConnectX-5 Ex (MT28800)", "", ""},
    {0x15b3, 0x101b, "cx6_200g", "Mellanox ConnectX-6 (MT28908)", "", ""},
    {0x15b3, 0x101d, "cx6_200g", "Mellanox ConnectX-6 Dx", "", "the ConnectX-6 preset for the Dx (Ethernet) part"},
    {0x15b3, 0x101f, "cx6_200g", "Mellanox ConnectX-6 Lx", "", "the ConnectX-6 preset for the Lx part (25/50 GbE)"},
    {0x15b3, 0x1021, "cx7_400g", "NVIDIA ConnectX-7 (MT2910)", "", ""},
    {0x15b3, 0xa2dc, "cx7_400g", "NVIDIA BlueField-3 (integrated ConnectX-7)", "", "the ConnectX-7 preset for the BlueField-3's adapter"},
};

// CPUs by /proc/cpuinfo model name.
constexpr PartModelEntry kCpus[] = {
    {"Platinum 8480", "xeon_8480", "Intel Xeon Platinum 8480"},  {"Platinum 8380", "xeon_8380", "Intel Xeon Platinum 8380"},
    {"Platinum 8280L", "xeon_8280l", "Intel Xeon Platinum 8280L"}, {"Platinum 8168", "xeon_8168", "Intel Xeon Platinum 8168"},
    {"Gold 6442Y", "xeon_6442y", "Intel Xeon Gold 6442Y"},        {"E5-2699 v4", "xeon_e5_2699v4", "Intel Xeon E5-2699 v4"},
    {"EPYC 7742", "epyc_7742", "AMD EPYC 7742"},                   {"Ryzen 9 5950X", "ryzen_5950x", "AMD Ryzen 9 5950X"},
};

PartMatch from_id(const IdEntry& e) {
  PartMatch m;
  m.preset = e.preset;
  m.name = e.name;
  m.source = fmt::format("{}: {:04x}:{:04x}", kPciIds, e.vendor, e.device);
  if (*e.values) m.values = json::parse(e.values);
  m.note = e.note;
  return m;
}

template <std::size_t N>
const IdEntry* find_id(const IdEntry (&table)[N], unsigned vendor, unsigned device) {
  for (const IdEntry& e : table)
    if (e.vendor == vendor && e.device == device) return &e;
  return nullptr;
}

}  // namespace

PartMatch match_gpu(unsigned vendor, unsigned device, const std::string& product) {
  if (const IdEntry* e = find_id(kGpus, vendor, device)) return from_id(*e);
  PartMatch m;
  if (!product.empty())
    for (const NameEntry& n : kGpuNames)
      if (product.find(n.contains) != std::string::npos) {
        m.preset = n.preset;
        m.name = product;
        m.source = fmt::format("nvidia-smi -q Product Name \"{}\"", product);
        return m;
      }
  m.name = product.empty() ? fmt::format("GPU {:04x}:{:04x}", vendor, device) : product;
  return m;
}

PartMatch match_nvme(unsigned vendor, unsigned device, const std::string& model) {
  for (const PartModelEntry& e : kDriveModels)
    if (!model.empty() && model.find(e.contains) != std::string::npos) {
      PartMatch m;
      m.preset = e.preset;
      m.name = e.name;
      m.source = fmt::format("the controller's model string \"{}\"", model);
      return m;
    }
  if (const IdEntry* e = find_id(kDrives, vendor, device)) return from_id(*e);
  PartMatch m;
  m.name = model.empty() ? fmt::format("NVMe drive {:04x}:{:04x}", vendor, device)
                         : fmt::format("NVMe drive {:04x}:{:04x} \"{}\"", vendor, device, model);
  return m;
}

PartMatch match_nic(unsigned vendor, unsigned device) {
  if (const IdEntry* e = find_id(kNics, vendor, device)) return from_id(*e);
  PartMatch m;
  if (vendor == 0x1af4)
    m.name = "virtio network device (not RDMA-capable)";
  else
    m.name = fmt::format("network adapter {:04x}:{:04x}", vendor, device);
  return m;
}

PartMatch match_switch(unsigned vendor, unsigned device, int generation) {
  // Broadcom (LSI, 1000) and PLX (10b5, now Broadcom) switch families differ by generation;
  // the preset is chosen by the generation its ports run at.
  PartMatch m;
  const bool broadcom = vendor == 0x1000 || vendor == 0x10b5;
  const char* preset = !broadcom ? nullptr
                       : generation >= 5 ? "pex89000"
                       : generation == 4 ? "pex88000"
                       : generation == 3 ? "pex9700"
                                         : nullptr;
  if (preset) {
    m.preset = preset;
    m.name = fmt::format("Broadcom/PLX PCIe Gen{} switch ({:04x}:{:04x})", generation, vendor, device);
    m.source = fmt::format("{}: vendor {:04x} (Broadcom/LSI, PLX) and the ports' max_link_speed (Gen{})", kPciIds,
                           vendor, generation);
    if (generation > 5) m.note = "no Gen6 switch preset: the PEX89000 (Gen5) figures stand in";
    return m;
  }
  m.name = fmt::format("PCIe switch {:04x}:{:04x}", vendor, device);
  return m;
}

PartMatch match_cpu(const std::string& model_name) {
  PartMatch m;
  for (const PartModelEntry& e : kCpus)
    if (model_name.find(e.contains) != std::string::npos) {
      m.preset = e.preset;
      m.name = e.name;
      m.source = fmt::format("/proc/cpuinfo model name \"{}\"", model_name);
      return m;
    }
  m.name = model_name.empty() ? "CPU" : model_name;
  return m;
}

std::optional<PlatformFigures> platform_of(const std::string& cpu_preset) {
  // The figures of the project's topologies of these systems (topologies/dgx-*.json).
  if (cpu_preset == "xeon_8480")
    return PlatformFigures{"307 GB/s", "62 GB/s", "120 ns",
                           "8 channels of DDR5-4800 (307 GB/s) and UPI 4 x 16 GT/s (~62 GB/s), as topologies/dgx-h100.json"};
  if (cpu_preset == "epyc_7742")
    return PlatformFigures{"204 GB/s", "64 GB/s", "150 ns",
                           "8 channels of DDR4-3200 (204 GB/s) and Infinity Fabric (64 GB/s), as topologies/dgx-a100.json"};
  if (cpu_preset == "xeon_8168")
    return PlatformFigures{"128 GB/s", "31 GB/s", "150 ns",
                           "6 channels of DDR4-2666 (128 GB/s) and UPI (31 GB/s), as topologies/dgx-2.json"};
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> presets_named() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const IdEntry& e : kGpus) out.emplace_back("gpu", e.preset);
  for (const NameEntry& e : kGpuNames) out.emplace_back("gpu", e.preset);
  for (const IdEntry& e : kDrives) out.emplace_back("nvme_ssd", e.preset);
  for (const PartModelEntry& e : kDriveModels) out.emplace_back("nvme_ssd", e.preset);
  for (const IdEntry& e : kNics) out.emplace_back("nic", e.preset);
  for (const PartModelEntry& e : kCpus) out.emplace_back("cpu_socket", e.preset);
  for (const char* s : {"pex89000", "pex88000", "pex9700"}) out.emplace_back("pcie_switch", s);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace iowall::discover
