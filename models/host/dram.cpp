#include "models/host/dram.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

Dram::Dram(const Params& p, SimContext& ctx) : Device(p, ctx) {
  server_ = std::make_unique<Server>(*this, "access");
  server_->set_carries("memory access");
}

Hop Dram::access_hop() const {
  Hop h;
  h.server = server_.get();
  h.bandwidth = bandwidth;
  h.label = name() + " access";
  return h;
}

IOWALL_REGISTER_DEVICE(Dram, "dram", "Host DRAM of one socket: bandwidth shared by DMA and copies");

}  // namespace iowall
