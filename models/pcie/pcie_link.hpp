// PCIe link arithmetic from the specification: raw rate per generation and width,
// line encoding (8b/10b, 128b/130b, Gen6 FLIT mode), TLP framing per packet and the
// data link layer's ACK/UpdateFC DLLPs and SKP ordered sets.
#pragma once
#include "sim/core/link.hpp"

namespace iowall::pcie {

struct LinkConfig {
  int gen = 5;
  int lanes = 16;
  i64 mps = 256;   // max payload size, bytes
  i64 mrrs = 512;  // max read request size, bytes
  bool ecrc = false;
};

// Gigatransfers per second per lane, in MT/s (Gen1 2500 ... Gen6 64000).
i64 transfer_rate_mts(int gen);
// Per-direction bandwidth after line encoding (before packet overhead).
Bandwidth encoded_bandwidth(const LinkConfig& c);
// Bytes of framing, sequence number, header and LCRC per memory write TLP (4DW header).
i64 write_tlp_overhead(const LinkConfig& c);
// The wire format of a stream of memory writes on this link.
WireFormat write_wire_format(const LinkConfig& c);
std::string describe(const LinkConfig& c);

}  // namespace iowall::pcie
