// A GPU on PCIe: HBM as the source or sink of DMA, and copy engines that move data
// between host memory and HBM (cudaMemcpy). Peer DMA from an SSD or NIC lands in
// HBM through the BAR1 aperture and needs no copy engine.
#pragma once
#include <memory>

#include "sim/core/device.hpp"
#include "sim/core/route.hpp"

namespace iowall {

class Gpu final : public Device {
public:
  Gpu(const Params& p, SimContext& ctx);
  // The hop a host<->device copy spends on one of the copy engines.
  Hop copy_engine_hop() const;

  IOWALL_PARAM_INT(max_link_width, 16, 1, 32,
                   "widest PCIe link the GPU trains to: a wider link trains down to this width",
                   "NVIDIA datasheets: PCIe x16 host interface (PCIe cards and SXM modules alike)");
  IOWALL_PARAM_INT(copy_engines, 2, 1, 16, "copy engines usable for host<->device copies in one direction",
                   "CUDA deviceQuery asyncEngineCount");
  IOWALL_PARAM(Bandwidth, copy_engine_bandwidth, "64 GB/s", "one copy engine's throughput ceiling",
               "above a Gen5 x16 link; the link limits (figures.md: 55.63 GB/s H100 H2D)");
  // cudaMemcpy as the driver makes it (models/host/host_memory.hpp uses these).
  IOWALL_PARAM(Time, copy_call_cost, "6.6 us", "one cudaMemcpy call beyond its bytes: launch, completion, return",
               "a 4 KiB copy into pinned memory, median of 16,384 calls on an H200 VM "
               "(reports/calibration/gpu-machine/checkpoint-h200/copies/d2h-pinned-none-4K-r*.json)");
  IOWALL_PARAM(Bandwidth, staged_d2h_bandwidth, "17.3 GB/s",
               "the driver's CPU copy out of its pinned staging buffer into pageable memory (device-to-host)",
               "d2h into reused pageable memory in 256 MiB calls, median of 3 (17.29 GB/s, H200 VM: "
               "reports/calibration/gpu-machine/checkpoint-h200/copies/d2h-pageable-none-256M-r*.json)");
  IOWALL_PARAM(Bandwidth, staged_h2d_bandwidth, "9.7 GB/s",
               "the driver's CPU copy from pageable memory into its pinned staging buffer (host-to-device)",
               "h2d from reused pageable memory in 256 MiB calls, median of 3 (9.71 GB/s, H200 VM: "
               "copies/h2d-pageable-none-256M-r*.json)");
  // A new block of GPU memory (PyTorch's caching allocator asking cudaMalloc when it holds no
  // free block of the size): what a copy to the GPU into it costs beyond one into a cached
  // block, per block and per byte (the allocation and the block's first use).
  IOWALL_PARAM(Time, fresh_block_cost, "18.5 us", "a new GPU memory block a copy to the GPU lands in: cudaMalloc "
               "and the block's first use, beyond a copy into a block the caching allocator held",
               "scripts/probe-gpu-alloc.py on an H200 VM (reports/calibration/gpu-machine/twenty-first-h200-vm/gpualloc/"
               "gpu-alloc.json): .to(GPU) of 640 host tensors with fresh blocks less with cached ones, medians of 3: "
               "0.0245 s at 3.125 MB a tensor, 0.0625 s at 12.5 MB: 38.3 and 97.7 us a block, a line of 18.5 us "
               "plus 158 GB/s");
  IOWALL_PARAM(Bandwidth, fresh_block_bandwidth, "158 GB/s",
               "a new GPU memory block's cost per byte (its pages mapped), beyond fresh_block_cost",
               "the same probe and line as fresh_block_cost");
  IOWALL_PARAM(Bytes, staging_chunk, "2 MiB", "one of the driver's two pinned staging buffers: a pageable copy moves "
               "this much per step, the CPU copying one while the copy engine moves the other",
               "assumed (the driver does not document it; the rate of a long copy does not depend on it)");
  IOWALL_PARAM(Bandwidth, hbm_bandwidth, "3350 GB/s", "HBM bandwidth", "NVIDIA H100 SXM datasheet");
  IOWALL_PARAM(Bytes, hbm_capacity, "80 GB", "HBM capacity", "NVIDIA H100 datasheet");
  IOWALL_PARAM(Bytes, bar1_size, "128 GiB", "BAR1 aperture for peer DMA into HBM", "nvidia-smi -q, H100");
  IOWALL_PORT(up, "PCIe upstream port", PortRole::pcie_upstream);
  IOWALL_PORT(nvlink, "NVLink port (to an NVSwitch or a peer GPU)", PortRole::any);
  bool port_required(const Port& p) const override { return &p == &up; }

private:
  std::unique_ptr<Server> copy_engines_;
};

}  // namespace iowall
