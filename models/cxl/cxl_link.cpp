// The "cxl" link protocol of topology JSON: a PCIe PHY carrying CXL flits. Its wire
// format charges what a busy link pays per 64 B line of read data (flit headers,
// CRC, FEC and the DRS header's share of a slot), so that chunk-level routes over a
// CXL link see the same ceiling as the flit-level model.
#include "models/cxl/cxl_flit.hpp"
#include "sim/config/registry.hpp"

namespace iowall::cxl {
namespace {

WireFormat line_format(const LinkConfig& c) {
  const FlitShare s = saturated_share(c.layout(), read_data(c.bits));
  WireFormat w;
  w.max_payload = kLineBytes;
  // wire/payload = flits * flit_bytes / (messages * 64): the part above 1 as num/den.
  w.link_num = s.flits * c.layout().flit_bytes - s.messages * kLineBytes;
  w.link_den = s.messages * kLineBytes;
  return w;
}

LinkSpec make_cxl_link(const Params& p) {
  const LinkConfig c = read_link(p);
  if (p.describing()) return LinkSpec{"cxl", Bandwidth(0), c.latency, {}, {}, "cxl"};
  return LinkSpec{"cxl", c.bandwidth(), c.latency, line_format(c), line_format(c), c.describe(), 0, "CXL flits"};
}

}  // namespace

IOWALL_REGISTER_LINK("cxl", "CXL link: Gen5/Gen6 PHY, 68 B or 256 B flits; CXL.mem messages packed into 16 B slots",
                     make_cxl_link);

}  // namespace iowall::cxl
