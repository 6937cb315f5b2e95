#include "models/rdma/nic.hpp"

#include "sim/config/registry.hpp"

namespace iowall {

IOWALL_REGISTER_DEVICE(Nic, "nic", "Network adapter (RDMA-capable) on PCIe");
IOWALL_PRESET("device", "nic", "cx7_400g", "NVIDIA ConnectX-7 400 Gb/s, Gen5 x16", "NVIDIA datasheet",
              R"({"line_rate": "400 Gb/s"})");
IOWALL_PRESET("device", "nic", "cx6_200g", "NVIDIA ConnectX-6 200 Gb/s, Gen4 x16", "NVIDIA datasheet",
              R"({"line_rate": "200 Gb/s"})");
IOWALL_PRESET("device", "nic", "cx5_100g", "Mellanox ConnectX-5 100 Gb/s, Gen3 x16", "Mellanox datasheet",
              R"({"line_rate": "100 Gb/s"})");

}  // namespace iowall
