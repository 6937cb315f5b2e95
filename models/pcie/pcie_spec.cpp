#include "models/pcie/pcie_spec.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace iowall::pcie {
namespace {

int width_index(int lanes) {
  switch (lanes) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 12: return 3;  // x12 is not in the tables: use the x8 row (more DLLPs, conservative)
    case 16: return 4;
    default: return 5;  // x32
  }
}
int mps_index(i64 mps) {
  int i = 0;
  for (i64 m = 128; m < mps && i < 5; m *= 2) ++i;
  return i;
}

// Rows x1, x2, x4, x8, x16, x32; columns MPS 128 ... 4096 (bytes of TLP traffic).
// Gen1 and Gen2 ACK and UpdateFC tables are the same except two x32 entries.
constexpr i64 kGen1Ack[6][6] = {{237, 416, 559, 1071, 2095, 4143}, {128, 217, 289, 545, 1057, 2081},
                                {73, 118, 154, 282, 538, 1050},    {67, 107, 86, 150, 278, 534},
                                {48, 72, 86, 150, 278, 534},       {33, 45, 52, 84, 148, 276}};
constexpr i64 kGen2Ack[6][6] = {{288, 467, 610, 1122, 2146, 4194}, {179, 268, 340, 596, 1108, 2132},
                                {124, 169, 205, 333, 589, 1101},   {118, 158, 137, 201, 329, 585},
                                {99, 123, 137, 201, 329, 585},     {84, 96, 103, 135, 199, 237}};
constexpr i64 kGen3Ack[6][6] = {{333, 512, 655, 1167, 2191, 4239}, {224, 313, 385, 641, 1153, 2177},
                                {169, 214, 250, 378, 634, 1146},   {163, 203, 182, 246, 374, 630},
                                {144, 168, 182, 246, 374, 630},    {129, 141, 148, 180, 244, 372}};

i64 spec_table(const i64 (&t)[6][6], const LinkConfig& c) { return t[width_index(c.lanes)][mps_index(c.mps)]; }

i64 ceil_div_u(i64 a, i64 b) { return (a + b - 1) / b; }

}  // namespace

i64 transfer_rate_mts(int gen) {
  static constexpr i64 rates[] = {0, 2500, 5000, 8000, 16000, 32000, 64000};
  return gen >= 1 && gen <= 6 ? rates[gen] : 0;
}

Bandwidth encoded_bandwidth(const LinkConfig& c) {
  const Bandwidth raw(transfer_rate_mts(c.gen) * 1'000'000 * c.lanes);
  if (c.gen <= 2) return scale(raw, 8, 10);
  if (c.gen <= 5) return scale(raw, 128, 130);
  return raw;
}

i64 mwr_overhead(const LinkConfig& c) {
  // Gen1-5: framing + sequence number + LCRC (8 B) + 4DW header (16 B) = 24 B.
  // FLIT mode: the header alone; sequence, CRC and FEC live in the flit.
  return (c.flit() ? 16 : 24) + (c.ecrc ? 4 : 0);
}
i64 mrd_overhead(const LinkConfig& c) { return mwr_overhead(c); }
i64 cpld_overhead(const LinkConfig& c) { return (c.flit() ? 12 : 20) + (c.ecrc ? 4 : 0); }

i64 ack_interval(const LinkConfig& c) {
  if (c.gen == 1) return spec_table(kGen1Ack, c);
  if (c.gen == 2) return spec_table(kGen2Ack, c);
  return spec_table(kGen3Ack, c);  // Gen3, Gen4 and Gen5 share the table
}
// The UpdateFC guideline equals the ACK limit except Gen1 x32 at MPS 2 KiB (248).
i64 fc_interval(const LinkConfig& c) {
  if (c.gen == 1 && c.lanes == 32 && c.mps == 2048) return 248;
  if (c.gen == 2 && c.lanes == 32 && c.mps == 4096) return 327;
  return ack_interval(c);
}

Bandwidth tlp_layer_bandwidth_duplex(const LinkConfig& c) {
  const Bandwidth raw = encoded_bandwidth(c);
  if (c.flit()) return scale(raw, 236, 256);
  // usable = raw * (1 - 8/ack - 8/fc - 4/1538), in integers.
  const i64 ack = ack_interval(c), fc = fc_interval(c);
  // (Intervals are at most a few thousand symbols: these products fit 64 bits.)
  const i64 den = ack * fc * kSkpInterval;
  const i64 num = den - kDllpBytes * fc * kSkpInterval - kDllpBytes * ack * kSkpInterval - kSkpBytes * ack * fc;
  return scale(raw, num, den);
}

namespace {

constexpr i128 kMicro = 1'000'000;

// Wire bytes (in millionths, so that the DLLP and SKP rates of a long stream are not
// rounded up per transfer) of a direction carrying `tlp_bytes` of its own TLPs while
// the other direction receives `other_tlp_bytes`, whose ACK (and, for posted and
// non-posted TLPs, UpdateFC) DLLPs this direction carries.
i128 with_link_layer_micro(const LinkConfig& c, i64 tlp_bytes, i64 other_tlp_bytes, bool other_needs_fc) {
  if (c.flit()) return static_cast<i128>(tlp_bytes) * kMicro * 256 / 236;  // DLLPs ride in the flits' DLP bytes
  i128 dllp = static_cast<i128>(other_tlp_bytes) * kMicro * kDllpBytes / ack_interval(c);
  if (other_needs_fc) dllp += static_cast<i128>(other_tlp_bytes) * kMicro * kDllpBytes / fc_interval(c);
  const i128 before_skp = static_cast<i128>(tlp_bytes) * kMicro + dllp;
  return before_skp + before_skp * kSkpBytes / (kSkpInterval - kSkpBytes);
}

i64 whole(i128 micro) { return static_cast<i64>((micro + kMicro - 1) / kMicro); }

}  // namespace

namespace {

// The data TLP bytes and request TLP bytes of one transfer, and the counts.
void tlp_bytes(const LinkConfig& c, Op op, i64 size, StreamCost& s, i64& data, i64& req) {
  if (op == Op::write) {
    s.tlps = ceil_div_u(size, c.mps);
    data = size + s.tlps * mwr_overhead(c);
    req = 0;
    return;
  }
  // Reads: one MRd per MRRS bytes; each is answered by completions of at most MPS
  // bytes (or RCB bytes when the completer splits at the boundary).
  const i64 cpl_size = c.rcb_split ? std::min(c.rcb, c.mps) : c.mps;
  s.requests = ceil_div_u(size, c.mrrs);
  for (i64 left = size; left > 0; left -= c.mrrs) s.tlps += ceil_div_u(std::min(left, c.mrrs), cpl_size);
  data = size + s.tlps * cpld_overhead(c);
  req = s.requests * mrd_overhead(c);
}

// Both directions' wire bytes in millionths. Posted writes need UpdateFC for their
// credits; completions do not (endpoints advertise infinite completion credits);
// read requests (non-posted) do.
std::pair<i128, i128> directions_micro(const LinkConfig& c, Op op, i64 data, i64 req) {
  if (op == Op::write) return {with_link_layer_micro(c, data, 0, false), with_link_layer_micro(c, 0, data, true)};
  return {with_link_layer_micro(c, data, req, true), with_link_layer_micro(c, req, data, false)};
}

}  // namespace

StreamCost stream_cost(const LinkConfig& c, Op op, i64 size) {
  StreamCost s;
  s.payload = size;
  i64 data = 0, req = 0;
  tlp_bytes(c, op, size, s, data, req);
  const auto [data_dir, rev_dir] = directions_micro(c, op, data, req);
  s.data_dir_bytes = whole(data_dir);
  s.rev_dir_bytes = whole(rev_dir);
  return s;
}

Bandwidth effective_bandwidth(const LinkConfig& c, Op op, i64 size) {
  StreamCost s;
  i64 data = 0, req = 0;
  tlp_bytes(c, op, size, s, data, req);
  const auto [data_dir, rev_dir] = directions_micro(c, op, data, req);
  const i128 busiest = std::max(data_dir, rev_dir);
  // The wire bytes are in millionths past 64 bits once multiplied by the rate, and the
  // divisor is itself 128-bit (which scale(bw, num, den) does not take): raw b/s in 128 bits.
  return Bandwidth(static_cast<i64>(static_cast<i128>(encoded_bandwidth(c).bps) * size * kMicro / busiest));
}

std::string describe(const LinkConfig& c) { return fmt::format("PCIe Gen{} x{}", c.gen, c.lanes); }

bool valid_request_size(i64 bytes) { return bytes >= 128 && bytes <= 4096 && (bytes & (bytes - 1)) == 0; }

std::string check(const LinkConfig& c) {
  if (c.gen < 1 || c.gen > 6) return fmt::format("Gen{} is not a PCIe generation (expected 1 to 6)", c.gen);
  static const int widths[] = {1, 2, 4, 8, 12, 16, 32};
  if (std::find(std::begin(widths), std::end(widths), c.lanes) == std::end(widths))
    return fmt::format("x{} is not a PCIe link width (expected 1, 2, 4, 8, 12, 16 or 32)", c.lanes);
  if (!valid_request_size(c.mps))
    return fmt::format("MPS {} B is not a power of two from 128 B to 4 KiB", c.mps);
  if (!valid_request_size(c.mrrs))
    return fmt::format("MRRS {} B is not a power of two from 128 B to 4 KiB", c.mrrs);
  if (c.rcb != 64 && c.rcb != 128) return fmt::format("RCB {} B is not 64 B or 128 B", c.rcb);
  return {};
}

}  // namespace iowall::pcie
