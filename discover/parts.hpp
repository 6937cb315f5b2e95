// Known parts: a PCI vendor:device ID (or, for drives and CPUs, the model string the
// kernel reports) named to the preset of the model that describes it, with the source of
// the identification. A part not in these tables gets its model's defaults and a note
// saying what to set. Every preset named here exists (tests/discover/parts_test.cpp).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace iowall::discover {

struct PartMatch {
  std::string preset;        // "" when the part is not known
  std::string name;          // the part in words ("NVIDIA H100 SXM5 80GB")
  std::string source;        // where the identification comes from
  nlohmann::json values = nlohmann::json::object();  // parameters set beside the preset
  std::string note;          // a caveat about the match ("" when none)
};

// `product` is nvidia-smi's Product Name when known (used when the device ID is not).
PartMatch match_gpu(unsigned vendor, unsigned device, const std::string& product);
// `model` is the NVMe controller's model string (/sys/class/nvme/nvmeN/model).
PartMatch match_nvme(unsigned vendor, unsigned device, const std::string& model);
PartMatch match_nic(unsigned vendor, unsigned device);
// A switch by its vendor and the PCIe generation of its ports.
PartMatch match_switch(unsigned vendor, unsigned device, int generation);
// `model_name` is /proc/cpuinfo's "model name".
PartMatch match_cpu(const std::string& model_name);

// Per-socket platform figures that sysfs does not hold, for a known CPU preset: memory
// bandwidth and the inter-socket link, as the project's topologies of those systems have them.
struct PlatformFigures {
  std::string dram_bandwidth, peer_bandwidth, peer_latency, source;
};
std::optional<PlatformFigures> platform_of(const std::string& cpu_preset);

// Every (model, preset) pair the tables above can name.
std::vector<std::pair<std::string, std::string>> presets_named();

}  // namespace iowall::discover
