// What the NVIDIA driver says of its GPUs, from `nvidia-smi -q` (product names, memory,
// in the driver's index order) and `nvidia-smi topo -m` (the NVLink matrix): parsed from
// recorded outputs, or from the programs' output when nvidia-smi is on PATH.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace iowall::discover {

struct NvidiaSmi {
  std::vector<std::string> gpus;              // BDFs ("0000:1b:00.0") in nvidia-smi's index order (-q)
  std::map<std::string, std::string> product;  // BDF -> Product Name
  std::map<std::string, std::string> memory;   // BDF -> FB Memory Usage Total ("81559 MiB")
  // NVLinks between GPU i and GPU j by nvidia-smi index (topo -m "NV18" -> 18); empty without topo -m.
  std::vector<std::vector<int>> nvlinks;
  std::vector<std::string> sources;            // where each part came from
  bool empty() const { return gpus.empty() && nvlinks.empty(); }
};

// Parses `nvidia-smi -q` and `nvidia-smi topo -m` text (either may be empty); `from` names
// where they were read, for the sources.
NvidiaSmi parse_nvidia_smi(const std::string& q_text, const std::string& topo_text, const std::string& q_from,
                           const std::string& topo_from);

// Runs `nvidia-smi ARGS` when it is on PATH: its standard output when it exits 0 within
// `timeout_s`, else nullopt. Nothing else is run and nothing is written.
std::optional<std::string> run_nvidia_smi(const std::vector<std::string>& args, int timeout_s = 60);

}  // namespace iowall::discover
