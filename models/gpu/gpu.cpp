#include "models/gpu/gpu.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

Gpu::Gpu(const Params& p, SimContext& ctx) : Device(p, ctx) {
  copy_engines_ = std::make_unique<Server>(*this, "copy_engines", static_cast<int>(copy_engines));
  copy_engines_->set_carries("copy");
}

Hop Gpu::copy_engine_hop() const {
  Hop h;
  h.server = copy_engines_.get();
  h.bandwidth = copy_engine_bandwidth;
  h.label = name() + " copy engine";
  return h;
}

IOWALL_REGISTER_DEVICE(Gpu, "gpu", "GPU with HBM, copy engines and a BAR1 aperture");
IOWALL_PRESET("device", "gpu", "h100_sxm", "NVIDIA H100 SXM5 80 GB (PCIe Gen5 x16 to the host)", "NVIDIA datasheet",
              R"({"copy_engines": 2, "hbm_bandwidth": "3350 GB/s", "hbm_capacity": "80 GB", "bar1_size": "128 GiB"})");
IOWALL_PRESET("device", "gpu", "h100_pcie", "NVIDIA H100 PCIe 80 GB", "NVIDIA datasheet",
              R"({"copy_engines": 2, "hbm_bandwidth": "2000 GB/s", "hbm_capacity": "80 GB", "bar1_size": "128 GiB"})");
IOWALL_PRESET("device", "gpu", "h200", "NVIDIA H200 141 GB", "NVIDIA datasheet",
              R"({"copy_engines": 2, "hbm_bandwidth": "4800 GB/s", "hbm_capacity": "141 GB", "bar1_size": "256 GiB"})");
IOWALL_PRESET("device", "gpu", "a100_sxm", "NVIDIA A100 SXM4 80 GB (PCIe Gen4 x16)", "NVIDIA datasheet",
              R"({"copy_engines": 2, "hbm_bandwidth": "2039 GB/s", "hbm_capacity": "80 GB", "bar1_size": "128 GiB"})");
IOWALL_PRESET("device", "gpu", "v100_sxm", "NVIDIA V100 SXM3 32 GB (DGX-2, PCIe Gen3 x16)", "NVIDIA datasheet",
              R"({"copy_engines": 2, "hbm_bandwidth": "900 GB/s", "hbm_capacity": "32 GB", "bar1_size": "32 GiB"})");
IOWALL_PRESET("device", "gpu", "b200", "NVIDIA B200 (PCIe Gen6 x16)", "NVIDIA datasheet",
              R"({"copy_engines": 4, "copy_engine_bandwidth": "128 GB/s", "hbm_bandwidth": "8000 GB/s", "hbm_capacity": "192 GB", "bar1_size": "256 GiB"})");

}  // namespace iowall
