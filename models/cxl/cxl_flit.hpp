// CXL link-layer arithmetic: flit layouts (68 B flits of CXL 1.1/2.0, 256 B flits of
// CXL 3.x), the CXL.mem messages a load or store sends, and how those messages pack
// into a flit's 16 B slots. The flit packer (flit_packer.hpp) applies the slot rules
// flit by flit; a saturated stream's cost per message, measured by running the packer,
// is what the link's LinkSpec charges at chunk fidelity.
#pragma once
#include <string>

#include "sim/core/params.hpp"
#include "sim/core/units.hpp"

namespace iowall::cxl {

constexpr i64 kLineBytes = 64;         // CXL.mem moves whole 64 B cache lines
constexpr Bytes kLine{kLineBytes};     // ...as a size
constexpr i64 kSlotBytes = 16;         // a generic slot (G-slot)
constexpr i64 kDataSlotsPerLine = kLineBytes / kSlotBytes;

// Where a flit's bytes go.
struct FlitLayout {
  i64 flit_bytes = 68;
  i64 slots = 4;            // slot 0 is the header slot (H-slot), the rest generic slots
  i64 hslot_bits = 96;      // bits of slot 0 left for message headers
  bool all_data_flit = true;  // a flit without headers carries data in every slot
};

// 68 B: 2 B ARB/MUX protocol ID + 4 x 16 B slots + 2 B CRC; slot 0 begins with the
// 4 B flit header (type, acks, credits, slot formats), leaving 96 bits for headers.
// CXL 2.0 spec 4.2.
FlitLayout layout_68();
// 256 B (standard): 2 B flit header + 14 B H-slot + 14 x 16 B G-slots + 2 B credit
// return + 8 B CRC + 6 B FEC. The 14 B H-slot cannot hold a 16 B data chunk, so there
// is no all-data flit. CXL 3.0 spec 6.2.3.
FlitLayout layout_256();

// Header widths of the CXL.mem messages (bits).
struct MessageBits {
  i64 req = 87;       // M2S Req (MemRd): master to subordinate request
  i64 rwd = 87;       // M2S RwD (MemWr) header, followed by 4 data slots
  i64 drs = 40;       // S2M DRS (MemData) header, followed by 4 data slots
  i64 ndr = 30;       // S2M NDR (Cmp): write completion, no data
  i64 bisnp = 87;     // S2M BISnp: back-invalidate snoop to a host holding the line
  i64 birsp = 30;     // M2S BIRsp: the host's answer
};

// One message as the packer sees it: a header, then data slots in order.
struct Message {
  i64 header_bits = 0;
  i64 data_slots = 0;
};
inline Message read_request(const MessageBits& b) { return {b.req, 0}; }
inline Message read_data(const MessageBits& b) { return {b.drs, kDataSlotsPerLine}; }
inline Message write_request(const MessageBits& b) { return {b.rwd, kDataSlotsPerLine}; }
inline Message write_completion(const MessageBits& b) { return {b.ndr, 0}; }

// A CXL link: the PCIe PHY it runs on, its flit mode and message widths.
struct LinkConfig {
  int gen = 5;
  int lanes = 16;
  int flit = 68;  // 68 or 256
  Time latency;   // one way: PHY, ARB/MUX and link layer of both ports, plus flight
  MessageBits bits;
  FlitLayout layout() const { return flit == 256 ? layout_256() : layout_68(); }
  Bandwidth bandwidth() const;  // per direction, after line encoding
  std::string describe() const;
};

// What is wrong with a link's generation, width and flit size: the key at fault
// ("gen", "lanes" or "flit") and why; an empty key when nothing is.
struct LinkProblem {
  std::string key, message;
};
LinkProblem check(const LinkConfig& c);

// Reads a "cxl" link object (gen, lanes, flit, latency, header widths); InputError
// naming the key for a width not in {1,2,4,8,16}, a generation other than 5 or 6,
// a flit size other than 68 or 256, or 68 B flits at Gen6.
LinkConfig read_link(const Params& p);

// Flits per message of a stream of identical messages that keeps the link busy,
// measured by running the packer: `flits` flits carried `messages` messages.
struct FlitShare {
  i64 flits = 0, messages = 1;
  double flits_per_message() const { return static_cast<double>(flits) / static_cast<double>(messages); }
};
FlitShare saturated_share(const FlitLayout& l, const Message& m);
// Wire bytes per message of such a stream (68 B flits, read data: 76.5 B per line).
double wire_bytes_per_message(const FlitLayout& l, const Message& m);
// Payload bandwidth of a saturated stream of read data (64 B per DRS message).
Bandwidth read_payload_ceiling(const LinkConfig& c);

}  // namespace iowall::cxl
