#include "models/cxl/cxl_flit.hpp"

#include <fmt/format.h>

#include "models/cxl/flit_packer.hpp"
#include "models/pcie/pcie_spec.hpp"

namespace iowall::cxl {

FlitLayout layout_68() { return {68, 4, 128 - 32, true}; }
FlitLayout layout_256() { return {256, 15, 14 * 8, false}; }

Bandwidth LinkConfig::bandwidth() const {
  pcie::LinkConfig phy;
  phy.gen = gen;
  phy.lanes = lanes;
  return pcie::encoded_bandwidth(phy);
}

std::string LinkConfig::describe() const { return fmt::format("CXL Gen{} x{} {} B flits", gen, lanes, flit); }

LinkConfig read_link(const Params& p) {
  LinkConfig c;
  c.gen = static_cast<int>(p.get_int("gen", 5, 5, 6, "PCIe PHY generation: 5 (32 GT/s, CXL 1.1-3.x) or 6 (64 GT/s, CXL 3.x)",
                                     "CXL 2.0 spec 1.4; CXL 3.0 spec 1.4"));
  c.lanes = static_cast<int>(p.get_int("lanes", 16, 1, 16, "link width: 1, 2, 4, 8 or 16 lanes", "CXL 2.0 spec 6.4 (x16, x8, x4, x2, x1)"));
  c.flit = static_cast<int>(p.get_int("flit", 68, 68, 256, "flit size in bytes: 68 (CXL 1.1/2.0) or 256 (CXL 3.x)",
                                      "CXL 2.0 spec 4.2; CXL 3.0 spec 6.2.3"));
  c.latency = p.get_time("latency", "25 ns",
                         "one way: both ports' PHY, ARB/MUX and link layer, plus flight time",
                         "assumption, sized so that a direct-attached device sits +80 ns over local DRAM "
                         "(Pond, ASPLOS'23: +70-90 ns, figures.md)");
  c.bits.req = p.get_int("req_bits", 87, 1, 128, "M2S Req (MemRd) header width in bits", "CXL 2.0 spec 3.3 M2S Req fields");
  c.bits.rwd = p.get_int("rwd_bits", 87, 1, 128, "M2S RwD (MemWr) header width in bits", "CXL 2.0 spec 3.3 M2S RwD fields");
  c.bits.drs = p.get_int("drs_bits", 40, 1, 128, "S2M DRS (MemData) header width in bits", "CXL 2.0 spec 3.3 S2M DRS fields");
  c.bits.ndr = p.get_int("ndr_bits", 30, 1, 128, "S2M NDR (Cmp) header width in bits", "CXL 2.0 spec 3.3 S2M NDR fields");
  c.bits.bisnp = p.get_int("bisnp_bits", 87, 1, 128, "S2M BISnp (back-invalidate snoop) header width in bits",
                           "assumption: as wide as an M2S Req (it carries an address); CXL 3.0 spec 3.3");
  c.bits.birsp = p.get_int("birsp_bits", 30, 1, 128, "M2S BIRsp header width in bits",
                           "assumption: as wide as an S2M NDR (a tag and an opcode); CXL 3.0 spec 3.3");
  if (p.describing()) return c;
  if (const LinkProblem bad = check(c); !bad.key.empty()) p.fail(bad.key, bad.message);
  return c;
}

LinkProblem check(const LinkConfig& c) {
  if (c.lanes != 1 && c.lanes != 2 && c.lanes != 4 && c.lanes != 8 && c.lanes != 16)
    return {"lanes", fmt::format("a CXL link is x1, x2, x4, x8 or x16, not x{}", c.lanes)};
  if (c.gen != 5 && c.gen != 6) return {"gen", fmt::format("CXL runs on Gen5 or Gen6 PHYs, not Gen{}", c.gen)};
  if (c.flit != 68 && c.flit != 256) return {"flit", fmt::format("a CXL flit is 68 B or 256 B, not {} B", c.flit)};
  if (c.gen == 6 && c.flit == 68) return {"flit", "64 GT/s (gen 6) runs only 256 B flits"};
  return {};
}

FlitShare saturated_share(const FlitLayout& l, const Message& m) {
  // Keep a backlog of messages queued, as a busy link would, and count what a
  // long run of flits carries after a warm-up.
  constexpr i64 kBacklog = 64, kWarmup = 256, kFlits = 16'384;
  FlitPacker packer(l);
  std::vector<std::uint32_t> done;
  for (i64 i = 0; i < kBacklog; ++i) packer.push(m, 0);
  i64 messages = 0;
  for (i64 f = 0; f < kWarmup + kFlits; ++f) {
    done.clear();
    packer.next_flit(done);
    for (std::size_t i = 0; i < done.size(); ++i) packer.push(m, 0);
    if (f >= kWarmup) messages += static_cast<i64>(done.size());
  }
  return {kFlits, messages};
}

double wire_bytes_per_message(const FlitLayout& l, const Message& m) {
  return saturated_share(l, m).flits_per_message() * static_cast<double>(l.flit_bytes);
}

Bandwidth read_payload_ceiling(const LinkConfig& c) {
  const FlitShare s = saturated_share(c.layout(), read_data(c.bits));
  // payload / wire = 64 B * messages / (flit_bytes * flits)
  return scale(c.bandwidth(), kLineBytes * s.messages, c.layout().flit_bytes * s.flits);
}

}  // namespace iowall::cxl
