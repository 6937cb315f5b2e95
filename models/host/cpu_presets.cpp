// CPU socket presets of the systems the validation corpus describes: core count and the
// all-core sustained clock from the vendor's specification (the I/O stacks' per-I/O
// costs are cycles, so the clock matters); single-thread memcpy from figures.md's
// host-memory rows for the generation; the idle states Linux's intel_idle driver gives the
// model (a blocked thread's core sleeps in them, models/host/cpu_socket.hpp).
#include "sim/config/registry.hpp"

namespace iowall {

IOWALL_PRESET("device", "cpu_socket", "xeon_8380", "Intel Xeon Platinum 8380 (Ice Lake-SP), 40 cores",
              "Intel ARK: 40 cores, 2.3 GHz base, 3.4 GHz max turbo; 8 DDR4-3200 channels, 64 PCIe Gen4 lanes; idle "
              "states: intel_idle.c icx_cstates (C1 1/1 us, C1E 4/4 us, C6 170/600 us since Linux 5.13)",
              R"({"cores": 40, "frequency": "2.3 GHz", "memcpy_per_core": "10 GB/s",
                  "idle_states": "C1 1us 1us, C1E 4us 4us, C6 170us 600us"})");
IOWALL_PRESET("device", "cpu_socket", "xeon_8280l", "Intel Xeon Platinum 8280L (Cascade Lake), 28 cores",
              "Intel ARK: 28 cores, 2.7 GHz base, 4.0 GHz max turbo; 6 DDR4-2933 channels, 48 PCIe Gen3 lanes; idle "
              "states: intel_idle.c skx_cstates (Cascade Lake uses Skylake-SP's table)",
              R"({"cores": 28, "frequency": "2.7 GHz", "memcpy_per_core": "6 GB/s",
                  "idle_states": "C1 2us 2us, C1E 10us 20us, C6 133us 600us"})");
IOWALL_PRESET("device", "cpu_socket", "xeon_6442y", "Intel Xeon Gold 6442Y (Sapphire Rapids), 24 cores",
              "Intel ARK: 24 cores, 2.6 GHz base, 4.0 GHz max turbo; 8 DDR5-4800 channels, 80 PCIe Gen5 lanes",
              R"({"cores": 24, "frequency": "2.6 GHz", "memcpy_per_core": "10 GB/s"})");
IOWALL_PRESET("device", "cpu_socket", "ryzen_5950x", "AMD Ryzen 9 5950X (Zen 3), 16 cores",
              "AMD specification: 16 cores, 3.4 GHz base, 4.9 GHz max boost; 2 DDR4-3200 channels, 24 PCIe Gen4 lanes",
              R"({"cores": 16, "frequency": "3.4 GHz", "memcpy_per_core": "12 GB/s"})");
IOWALL_PRESET("device", "cpu_socket", "xeon_e5_2699v4", "Intel Xeon E5-2699 v4 (Broadwell-EP), 22 cores",
              "Intel ARK: 22 cores, 2.2 GHz base, 3.6 GHz max turbo; 4 DDR4-2400 channels, 40 PCIe Gen3 lanes",
              R"({"cores": 22, "frequency": "2.2 GHz", "memcpy_per_core": "6 GB/s"})");

}  // namespace iowall
