#include "models/host/cpu_socket.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

CpuSocket::CpuSocket(const Params& p, SimContext& ctx) : Device(p, ctx) {
  cores_ = std::make_unique<Server>(*this, "cores", static_cast<int>(cores));
}

void CpuSocket::spend(Time cost, InlineFunction<void()> done) {
  cores_->submit(cost, Time(0), {}, done);
}

IOWALL_REGISTER_DEVICE(CpuSocket, "cpu_socket", "CPU socket: cores for software costs and copies");
IOWALL_PRESET("device", "cpu_socket", "xeon_8480", "Intel Xeon Platinum 8480C (DGX H100), 56 cores",
              "Intel ARK; memcpy per core from figures.md host-memory rows scaled to Sapphire Rapids",
              R"({"cores": 56, "frequency": "2.0 GHz", "memcpy_per_core": "10 GB/s"})");
IOWALL_PRESET("device", "cpu_socket", "epyc_7742", "AMD EPYC 7742 (DGX A100), 64 cores", "AMD datasheet",
              R"({"cores": 64, "frequency": "2.25 GHz", "memcpy_per_core": "9 GB/s"})");
IOWALL_PRESET("device", "cpu_socket", "xeon_8168", "Intel Xeon Platinum 8168 (DGX-2), 24 cores",
              "Intel ARK; ~6 GB/s single-thread memcpy on Skylake-SP (figures.md)",
              R"({"cores": 24, "frequency": "2.7 GHz", "memcpy_per_core": "6 GB/s"})");

}  // namespace iowall
