// PCIe protocol arithmetic from the base specification: line rates and encodings,
// TLP sizes per type, MPS/MRRS/RCB splitting, the spec's ACK and UpdateFC DLLP
// scheduling intervals, SKP ordered sets, and Gen6 FLIT mode. Everything a DMA
// stream costs on a link follows from these; the TLP-level simulator and the chunk
// model both use them, so the two can be held to each other.
#pragma once
#include <string>

#include "sim/core/units.hpp"

namespace iowall::pcie {

struct LinkConfig {
  int gen = 5;
  int lanes = 16;
  i64 mps = 256;   // max payload size, bytes
  i64 mrrs = 512;  // max read request size, bytes
  i64 rcb = 64;    // read completion boundary, bytes
  bool rcb_split = false;  // completers split completions at the RCB (else at MPS)
  bool ecrc = false;
  bool flit() const { return gen >= 6; }
};

// Transfer rate per lane in MT/s (Gen1 2500 ... Gen6 64000).
i64 transfer_rate_mts(int gen);
// Per-direction bandwidth after line encoding, before any packet: 8b/10b (Gen1-2),
// 128b/130b (Gen3-5), raw PAM4 symbols for Gen6 (FLIT overheads counted separately).
Bandwidth encoded_bandwidth(const LinkConfig& c);

// Bytes on the wire of one TLP (framing, sequence number, header, LCRC, optional
// ECRC; in FLIT mode the header only), excluding payload.
i64 mwr_overhead(const LinkConfig& c);   // memory write, 64-bit address (4DW header)
i64 mrd_overhead(const LinkConfig& c);   // memory read request, 64-bit address
i64 cpld_overhead(const LinkConfig& c);  // completion with data (3DW header)
constexpr i64 kDllpBytes = 8;            // 6 B DLLP + framing (ACK, UpdateFC)
constexpr i64 kSkpBytes = 4, kSkpInterval = 1538;  // SKP ordered set per 1538 B sent

// Spec-recommended bytes of received TLP traffic between ACK DLLPs and between
// UpdateFC DLLPs (PCIe Base Spec 5.0 Tables 3-7..3-9 and 2-46..2-48), by gen,
// width and MPS. Gen6 FLIT mode carries them in each flit's DLP bytes instead.
i64 ack_interval(const LinkConfig& c);
i64 fc_interval(const LinkConfig& c);

// Fraction of link bytes left for TLPs when both directions carry equal TLP
// traffic, so each direction also carries the other's ACK/UpdateFC DLLPs
// (pcie-bench's "TLP-layer bandwidth"; Gen3 x8 MPS 256: 57.88 Gb/s).
Bandwidth tlp_layer_bandwidth_duplex(const LinkConfig& c);

enum class Op { write, read };

struct StreamCost {
  i64 payload = 0;
  i64 tlps = 0;            // data-carrying TLPs (MWr or CplD) in the data direction
  i64 requests = 0;        // MRd requests (reads) in the reverse direction
  i64 data_dir_bytes = 0;  // wire bytes in the data direction (TLPs + DLLPs + SKP)
  i64 rev_dir_bytes = 0;   // wire bytes in the reverse direction
};
// What one DMA transfer of `size` bytes costs on the link, direction by direction.
// The data direction carries the data TLPs, DLLPs acknowledging the reverse
// direction's TLPs, and SKP; the reverse carries requests, the data's DLLPs, SKP.
// Completion credits are infinite at endpoints, so completions draw no UpdateFC.
StreamCost stream_cost(const LinkConfig& c, Op op, i64 size);

// Effective DMA bandwidth of a stream of `size`-byte transfers (payload bytes per
// second), bounded by whichever direction is busier.
Bandwidth effective_bandwidth(const LinkConfig& c, Op op, i64 size);

std::string describe(const LinkConfig& c);
// Checks a configuration; returns an error text, empty when valid.
std::string check(const LinkConfig& c);
// A request or payload size PCIe allows (MPS, MRRS): a power of two from 128 B to 4 KiB.
bool valid_request_size(i64 bytes);

}  // namespace iowall::pcie
