// NVLink as `nvidia-smi topo -m` shows it: when every pair of the placed GPUs is NVLinked
// (an NVSwitch system), one nvswitch with a link per GPU at its NVLink count x 25 GB/s
// (NVLink 2 to 4, per direction); two GPUs NVLinked to each other, a direct link; a mesh
// without a switch is not modelled (a gpu has one nvlink port) and a note says so.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "discover/nvidia_smi.hpp"
#include "discover/part.hpp"

namespace iowall::discover {

// `gpus`: the GPUs placed in the topology, as (BDF, device id) in BDF order.
Part nvlink_part(const NvidiaSmi& smi, const std::vector<std::pair<std::string, std::string>>& gpus);

}  // namespace iowall::discover
