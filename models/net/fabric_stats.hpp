// What the packet fabric counts per flow and per port, for experiments and statistics.
#pragma once
#include <cstdint>

#include "sim/core/units.hpp"

namespace iowall::net {

struct FlowStats {
  Bytes delivered;
  std::uint64_t out_of_order = 0;  // packets that arrived ahead of a missing one
  Bytes max_reorder;               // most bytes the receiver held waiting for a gap
  Time first_byte, last_byte;
  std::uint64_t marked = 0, cnps = 0;
  Bandwidth final_rate;
  Bandwidth min_rate;              // lowest rate the sender paced at (DCQCN's deepest cut)
};

struct PortStats {
  std::uint64_t pauses_sent = 0, pauses_received = 0;
  Time paused_time;        // time this egress spent paused (any priority)
  Bytes max_skid;          // most wire bytes received on this ingress after one XOFF
  Bytes max_held;          // most bytes of one priority held from this ingress
  Bytes max_queue;         // largest egress queue of data
};

}  // namespace iowall::net
