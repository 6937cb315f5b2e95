// nvme_ssd presets of drives in the published measurements of validation/, each from
// its vendor's specification; what the vendor does not publish is stated as assumed.
// None is taken from the measurement it is checked against.
#include "sim/config/registry.hpp"

namespace iowall {

IOWALL_PRESET("device", "nvme_ssd", "micron_9200_pro", "Micron 9200 PRO 3.84 TB (the DGX-2's data drive), Gen3 x4, lumped media",
              "Micron 9200 product brief (rev. with 3.50 GB/s): sequential 128 KB read up to 3.50 GB/s, write up to "
              "3.50 GB/s, 4 KB random read up to 840K IOPS, write up to 285K; latency to media (QD1) read 92-150 us "
              "varying by capacity, write 21 us; 128 SQ/CQ pairs. Read latency at the middle of the range (121 us), with the "
              "range as its uncertainty (triangular)",
              R"j({"max_link_width": 4, "media": "lumped", "read_bandwidth": "3.5 GB/s", "write_bandwidth": "3.5 GB/s", "max_iops": "840 K/s",
                  "read_latency": "121 us (92 us .. 150 us)", "write_latency": "21 us", "max_queues": 128, "capacity": "3.84 TB"})j");
IOWALL_PRESET("device", "nvme_ssd", "intel_p4600", "Intel SSD DC P4600 1.6 TB, Gen3 x4, lumped media",
              "Intel DC P4500/P4600 family (Lenovo product guide for the P4500 sibling; P4600 brief not in hand): "
              "sequential read 3.2 GB/s, 4 KB random read about 560K IOPS at 1.6 TB (assumed from the family's "
              "capacity scaling), random read latency 85 us",
              R"({"max_link_width": 4, "media": "lumped", "read_bandwidth": "3.2 GB/s", "write_bandwidth": "1.3 GB/s", "max_iops": "560 K/s",
                  "read_latency": "85 us", "write_latency": "20 us", "capacity": "1.6 TB"})");
IOWALL_PRESET("device", "nvme_ssd", "samsung_pm1753", "Samsung PM1753 (Gen5 x4), lumped media",
              "Samsung, as quoted by the xNVMe AiSIO evaluation: 4 KB random read 3.2M IOPS, sequential read 14.5 GB/s. "
              "Read latency assumed 60 us (Gen5 TLC class, Micron 9550 typical); write 7 GB/s assumed",
              R"({"max_link_width": 4, "media": "lumped", "read_bandwidth": "14.5 GB/s", "write_bandwidth": "7 GB/s", "max_iops": "3.2 M/s",
                  "read_latency": "60 us", "write_latency": "15 us", "capacity": "30.72 TB"})");

}  // namespace iowall
