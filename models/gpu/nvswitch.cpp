#include "models/gpu/nvswitch.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

IOWALL_REGISTER_DEVICE(NvSwitch, "nvswitch", "NVLink switch joining GPUs for peer copies");

}  // namespace iowall
