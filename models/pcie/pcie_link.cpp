// The "pcie" link protocol of topology JSON: generation, width, MPS/MRRS/RCB and
// ECRC turn into the link's per-direction bandwidth and the wire formats of DMA
// writes (MWr TLPs) and read completions (CplD TLPs) that the chunk model charges.
#include <fmt/format.h>

#include "models/pcie/pcie_spec.hpp"
#include "sim/config/registry.hpp"

namespace iowall::pcie {
namespace {

// Wire bytes of a stream of TLPs of at most `max_payload` bytes: per-TLP overhead,
// then SKP ordered sets (Gen1-5) or the flit's non-TLP bytes (Gen6). ACK/UpdateFC
// DLLPs for this traffic travel in the opposite direction.
WireFormat pcie_format(const LinkConfig& c, i64 max_payload, i64 overhead) {
  WireFormat w;
  w.max_payload = max_payload;
  w.packet_overhead = overhead;
  if (c.flit()) {
    w.link_num = 256 - 236;
    w.link_den = 236;
  } else {
    w.link_num = kSkpBytes;
    w.link_den = kSkpInterval - kSkpBytes;
  }
  return w;
}

LinkSpec make_pcie_link(const Params& p) {
  LinkConfig c;
  c.gen = static_cast<int>(p.get_int("gen", 5, 1, 6, "PCIe generation (1-6)", "PCIe base spec"));
  c.lanes = static_cast<int>(p.get_int("lanes", 16, 1, 32, "link width in lanes: 1, 2, 4, 8, 12, 16 or 32", "PCIe base spec"));
  const Bytes mps = p.get_bytes("mps", "256 B", "max payload size per TLP (128 B - 4 KiB, a power of two)", "PCIe base spec");
  const Bytes mrrs = p.get_bytes("mrrs", "512 B", "max read request size (128 B - 4 KiB, a power of two)", "PCIe base spec");
  const Bytes rcb = p.get_bytes("rcb", "64 B", "read completion boundary (64 B or 128 B)", "PCIe base spec");
  c.rcb_split = p.get_bool("rcb_split", false, "completers split read completions at the RCB (else at MPS)",
                           "PCIe base spec 2.3.1.1; completer behaviour varies by CPU");
  c.ecrc = p.get_bool("ecrc", false, "end-to-end CRC on every TLP (+4 B)", "PCIe base spec");
  const Time latency = p.get_time("latency", "20 ns", "one-way propagation plus PHY latency of the link",
                                  "typical short channel without retimers");
  const Time fec_latency = p.get_time("fec_latency", "2 ns", "Gen6 FLIT-mode FEC decode latency (added at Gen6)",
                                      "PCIe 6.0 design target: FEC adds about 2 ns");
  const i64 credits = p.get_int("credits", 64, 1, 4096, "TLP headers the receiver buffers (flow-control credits), used at tlp fidelity",
                                "typical posted header credits of Gen4/Gen5 ports");
  if (p.describing()) return LinkSpec{"pcie", Bandwidth(0), latency, {}, {}, "pcie"};
  // The TLP arithmetic of pcie_spec.hpp works in plain byte counts.
  c.mps = mps.count();
  c.mrrs = mrrs.count();
  c.rcb = rcb.count();
  if (const std::string err = check(c); !err.empty()) {
    const char* key = err.rfind("x", 0) == 0 ? "lanes" : err.rfind("MPS", 0) == 0 ? "mps" : err.rfind("MRRS", 0) == 0 ? "mrrs" : "rcb";
    p.fail(key, err);
  }
  const i64 cpl = c.rcb_split ? std::min(c.rcb, c.mps) : c.mps;
  return LinkSpec{"pcie", encoded_bandwidth(c), c.flit() ? latency + fec_latency : latency,
                  pcie_format(c, c.mps, mwr_overhead(c)), pcie_format(c, cpl, cpld_overhead(c)), describe(c), credits, "PCIe TLPs"};
}

LinkSpec make_fabric_link(const Params& p) {
  const Bandwidth bw = p.get_bandwidth("bandwidth", "", "per-direction bandwidth", "the topology's source");
  const Time latency = p.get_time("latency", "0 ns", "one-way latency", "the topology's source");
  return LinkSpec{"fabric", bw, latency, {}, {}, p.describing() ? "fabric" : to_string(bw)};
}

}  // namespace

IOWALL_REGISTER_LINK("pcie", "PCIe link: generation, width, MPS/MRRS/RCB; TLP, DLLP and SKP overhead from the spec",
                     make_pcie_link);
IOWALL_REGISTER_LINK("fabric", "A plain link with a bandwidth and latency (CPU-internal fabrics, memory buses, NVLink)",
                     make_fabric_link);

}  // namespace iowall::pcie
