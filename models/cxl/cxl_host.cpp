#include "models/cxl/cxl_host.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

IOWALL_REGISTER_DEVICE(CxlHost, "cxl_host", "CPU socket's or GPU's CXL root port issuing CXL.mem loads and stores");
IOWALL_PRESET("device", "cxl_host", "gpu", "a GPU reading CXL memory with many warps in flight",
              "assumption: thousands of loads in flight across SMs", R"({"max_outstanding": 4096})");

}  // namespace iowall
