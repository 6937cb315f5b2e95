// Host memory: one bandwidth shared by every byte that enters or leaves it (DMA
// from devices, copy-engine reads, CPU copies), so contention between them shows.
#pragma once
#include <memory>

#include "sim/core/device.hpp"
#include "sim/core/route.hpp"

namespace iowall {

class Dram final : public Device {
public:
  Dram(const Params& p, SimContext& ctx);
  // The hop every access to this memory takes.
  Hop access_hop() const;
  bool endpoint_hop(Hop& hop) const override {
    hop = access_hop();
    return true;
  }
  Server& server() { return *server_; }

  IOWALL_PARAM(Bandwidth, bandwidth, "307 GB/s", "sustained memory bandwidth of the socket (reads + writes)",
               "8 channels DDR5-4800: 8 x 38.4 GB/s");
  IOWALL_PARAM(Bytes, capacity, "1 TiB", "installed memory", "system configuration");
  IOWALL_PORT(mc, "memory controller, towards the host bridge", PortRole::memory);

private:
  std::unique_ptr<Server> server_;
};

}  // namespace iowall
