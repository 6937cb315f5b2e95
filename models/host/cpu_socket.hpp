// A CPU socket: cores that software costs are spent on (system calls, interrupts,
// cuFile's control plane, memcpy). Cores busy over time is the "CPU tax" output.
#pragma once
#include <memory>

#include "sim/core/device.hpp"
#include "sim/core/server.hpp"

namespace iowall {

class CpuSocket final : public Device {
public:
  CpuSocket(const Params& p, SimContext& ctx);
  Server& core_server() { return *cores_; }
  // Runs `cost` of CPU time on the first free core, then `done`.
  void spend(Time cost, InlineFunction<void()> done);

  IOWALL_PARAM_INT(cores, 56, 1, 1024, "physical cores available to I/O and copies", "CPU datasheet");
  IOWALL_PARAM(Frequency, frequency, "2.0 GHz", "sustained core clock (for cycles per byte)", "CPU datasheet");
  IOWALL_PARAM(Bandwidth, memcpy_per_core, "10 GB/s", "single-thread memcpy bandwidth",
               "figures.md: ~6 GB/s Haswell/Skylake servers; newer cores 10-12 GB/s");
  IOWALL_PORT(fabric, "on-die fabric to the root complex", PortRole::any);

private:
  std::unique_ptr<Server> cores_;
};

}  // namespace iowall
