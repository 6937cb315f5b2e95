// A requester of CXL.mem: a CPU socket's or a GPU's CXL root port. Loads leave from
// its cores or SMs through its fabric to the root port (the part of a local-DRAM load
// that is not the DRAM itself); at most `max_outstanding` lines are in flight (its
// request tags). It answers back-invalidate snoops for lines it caches.
#pragma once
#include "sim/core/device.hpp"

namespace iowall {

class CxlHost final : public Device {
public:
  CxlHost(const Params& p, SimContext& ctx) : Device(p, ctx) {}

  IOWALL_PARAM(Time, fabric_latency, "50 ns", "core to the CXL root port and back (on-die fabric, home agent)",
               "assumption: local DRAM load latency (100 ns) minus its DRAM access (50 ns)");
  IOWALL_PARAM(Time, local_dram_latency, "100 ns", "idle load latency of the host's own DRAM, for comparison",
               "assumption: Intel MLC idle latency of current two-socket servers, about 100 ns");
  IOWALL_PARAM(Time, snoop_latency, "30 ns", "answering a back-invalidate snoop: cache lookup and writeback decision",
               "assumption: a last-level-cache lookup");
  IOWALL_PARAM_INT(max_outstanding, 512, 1, 1 << 20, "64 B line requests in flight at once (request tags)",
                   "assumption: a root port's tag space; a CPU core alone sustains 10-20 (line fill buffers)");
  IOWALL_PORT(cxl, "CXL root port", PortRole::any);
};

}  // namespace iowall
