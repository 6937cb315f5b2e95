#include "models/pcie/pcie_link.hpp"

#include <fmt/format.h>

#include "sim/config/registry.hpp"

namespace iowall::pcie {

i64 transfer_rate_mts(int gen) {
  switch (gen) {
    case 1: return 2500;
    case 2: return 5000;
    case 3: return 8000;
    case 4: return 16000;
    case 5: return 32000;
    case 6: return 64000;
  }
  return 0;
}

Bandwidth encoded_bandwidth(const LinkConfig& c) {
  const Bandwidth raw(transfer_rate_mts(c.gen) * 1'000'000 * c.lanes);
  if (c.gen <= 2) return scale(raw, 8, 10);     // 8b/10b
  if (c.gen <= 5) return scale(raw, 128, 130);  // 128b/130b
  return raw;                                   // Gen6 PAM4 FLIT mode: overhead is inside the flit
}

i64 write_tlp_overhead(const LinkConfig& c) {
  // Gen1-5: STP/framing 4 B (Gen3+ STP token; Gen1/2 STP+END 2 B, counted alike), sequence
  // number 2 B, 4DW header 16 B, LCRC 4 B = 24 B (figures.md, PCIe base spec). ECRC adds 4 B.
  // Gen6 FLIT mode: no per-TLP framing, sequence number or LCRC; the 4DW header remains.
  const i64 base = c.gen >= 6 ? 16 : 24;
  return base + (c.ecrc ? 4 : 0);
}

WireFormat write_wire_format(const LinkConfig& c) {
  WireFormat w;
  w.max_payload = c.mps;
  w.packet_overhead = write_tlp_overhead(c);
  if (c.gen >= 6) {
    // A 256 B flit carries 236 B of TLP area; DLP, CRC and FEC take the other 20 B.
    w.link_num = 256 - 236;
    w.link_den = 236;
  } else {
    // One ACK and one UpdateFC DLLP (8 B each) per ~168 B of TLP traffic, and a 4 B SKP
    // ordered set per 1538 B (figures.md): wire = tlp * (184/168) * (1542/1538).
    const i64 num = 184 * 1542, den = 168 * 1538;
    w.link_num = num - den;
    w.link_den = den;
  }
  return w;
}

std::string describe(const LinkConfig& c) { return fmt::format("PCIe Gen{} x{}", c.gen, c.lanes); }

namespace {

bool power_of_two(i64 v) { return v > 0 && (v & (v - 1)) == 0; }

LinkSpec make_pcie_link(const Params& p) {
  LinkConfig c;
  c.gen = static_cast<int>(p.get_int("gen", 5, 1, 6, "PCIe generation (1-6)", "PCIe base spec"));
  c.lanes = static_cast<int>(p.get_int("lanes", 16, 1, 32, "link width in lanes: 1, 2, 4, 8, 12, 16 or 32", "PCIe base spec"));
  const Bytes mps = p.get_bytes("mps", "256 B", "max payload size per TLP (128 B - 4 KiB, a power of two)", "PCIe base spec");
  const Bytes mrrs = p.get_bytes("mrrs", "512 B", "max read request size (128 B - 4 KiB, a power of two)", "PCIe base spec");
  c.ecrc = p.get_bool("ecrc", false, "end-to-end CRC on every TLP (+4 B)", "PCIe base spec");
  const Time latency = p.get_time("latency", "20 ns", "one-way propagation plus PHY latency of the link",
                                  "typical PHY+retimer-free channel; PCIe base spec timing budget");
  if (p.describing()) return LinkSpec{"pcie", Bandwidth(0), latency, {}, "pcie"};
  static const int widths[] = {1, 2, 4, 8, 12, 16, 32};
  if (std::find(std::begin(widths), std::end(widths), c.lanes) == std::end(widths))
    p.fail("lanes", fmt::format("x{} is not a PCIe link width (expected 1, 2, 4, 8, 12, 16 or 32)", c.lanes));
  if (!power_of_two(mps.n) || mps.n < 128 || mps.n > 4096)
    p.fail("mps", fmt::format("{} is not a PCIe max payload size (expected a power of two from 128 B to 4 KiB)", to_string(mps)));
  if (!power_of_two(mrrs.n) || mrrs.n < 128 || mrrs.n > 4096)
    p.fail("mrrs", fmt::format("{} is not a PCIe max read request size (expected a power of two from 128 B to 4 KiB)", to_string(mrrs)));
  c.mps = mps.n;
  c.mrrs = mrrs.n;
  return LinkSpec{"pcie", encoded_bandwidth(c), latency, write_wire_format(c), describe(c)};
}

LinkSpec make_fabric_link(const Params& p) {
  const Bandwidth bw = p.get_bandwidth("bandwidth", "", "per-direction bandwidth", "the topology's source");
  const Time latency = p.get_time("latency", "0 ns", "one-way latency", "the topology's source");
  return LinkSpec{"fabric", bw, latency, {}, p.describing() ? "fabric" : to_string(bw)};
}

}  // namespace

IOWALL_REGISTER_LINK("pcie", "PCIe link: generation, width, MPS/MRRS; TLP and DLLP overhead from the spec", make_pcie_link);
IOWALL_REGISTER_LINK("fabric", "A plain link with a bandwidth and latency (CPU-internal fabrics, memory buses, NVLink)",
                     make_fabric_link);

}  // namespace iowall::pcie
