#include "models/cxl/cxl_switch.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

CxlSwitch::CxlSwitch(const Params& p, SimContext& ctx) : Device(p, ctx) {
  for (i64 i = 0; i < ports; ++i) make_port("p" + std::to_string(i), "CXL port", PortRole::any);
}

IOWALL_REGISTER_DEVICE(CxlSwitch, "cxl_switch", "CXL switch pooling memory devices across hosts and GPUs");

}  // namespace iowall
