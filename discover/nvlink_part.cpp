#include "discover/nvlink_part.hpp"

#include <algorithm>
#include <climits>

#include <fmt/format.h>

namespace iowall::discover {

Part nvlink_part(const NvidiaSmi& smi, const std::vector<std::pair<std::string, std::string>>& gpus) {
  Part p;
  const auto& nv = smi.nvlinks;
  if (nv.empty()) return p;
  // nvidia-smi numbers GPUs in its -q order (PCI bus order unless told otherwise).
  std::vector<std::string> order = smi.gpus;
  if (order.size() < nv.size()) {
    order.clear();
    for (const auto& [bdf, id] : gpus) order.push_back(bdf);
  }
  std::vector<std::pair<std::size_t, std::string>> mapped;  // nvidia-smi index, device id
  for (std::size_t i = 0; i < nv.size() && i < order.size(); ++i)
    for (const auto& [bdf, id] : gpus)
      if (bdf == order[i]) mapped.emplace_back(i, id);
  bool all = mapped.size() >= 2, any = false;
  for (const auto& [i, a] : mapped)
    for (const auto& [j, b] : mapped)
      if (i != j) {
        all = all && nv[i][j] > 0;
        any = any || nv[i][j] > 0;
      }
  if (!all) {
    if (any)
      p.notes.push_back("NVLink joins only some GPU pairs (a mesh without a switch): not modelled (a gpu has one "
                        "nvlink port); peer copies go over PCIe");
    return p;
  }
  auto links_of = [&](std::size_t i) {
    int c = INT_MAX;
    for (const auto& [j, b] : mapped)
      if (j != i) c = std::min(c, nv[i][j]);
    return c;
  };
  const std::string per_link = "25 GB/s per NVLink and direction (NVLink 2 to 4)";
  if (mapped.size() == 2) {
    const int c = links_of(mapped[0].first);
    p.links.push_back({{"a", mapped[0].second + ".nvlink"}, {"b", mapped[1].second + ".nvlink"},
                       {"fabric", {{"bandwidth", fmt::format("{} GB/s", 25 * c)}, {"latency", "100 ns"}}}});
    p.sources.push_back(fmt::format("{} -- {}: NV{} in nvidia-smi topo -m, x {}", mapped[0].second, mapped[1].second, c,
                                    per_link));
    return p;
  }
  p.devices.push_back({{"id", "nvs0"},
                       {"model", "nvswitch"},
                       {"ports", static_cast<int>(mapped.size())},
                       {"description", "the NVSwitch fabric nvidia-smi topo -m shows (every GPU pair NVLinked), "
                                       "folded into one switch"}});
  for (std::size_t k = 0; k < mapped.size(); ++k) {
    const int c = links_of(mapped[k].first);
    p.links.push_back({{"a", mapped[k].second + ".nvlink"}, {"b", fmt::format("nvs0.p{}", k)},
                       {"fabric", {{"bandwidth", fmt::format("{} GB/s", 25 * c)}, {"latency", "100 ns"}}}});
  }
  p.sources.push_back(fmt::format("nvs0: every GPU pair NVLinked in nvidia-smi topo -m (NV{} for {}), x {}; latency "
                                  "as topologies/dgx-2.json",
                                  links_of(mapped[0].first), mapped[0].second, per_link));
  return p;
}

}  // namespace iowall::discover
