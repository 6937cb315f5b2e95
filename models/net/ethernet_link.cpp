// Link protocols for topologies: RoCEv2 over Ethernet and InfiniBand. Each packet of
// one path MTU of payload pays its headers and, on Ethernet, the preamble and gap; an
// RDMA WRITE adds its RETH once. The rate is the data rate after FEC and line coding.
#include <fmt/format.h>

#include "models/net/length.hpp"
#include "sim/config/registry.hpp"

namespace iowall::net {
namespace {

struct Common {
  Bandwidth rate;
  Time latency;
  i64 mtu = 4096;
};

Common read_common(const Params& p, const char* default_rate, const char* rate_source) {
  Common c;
  c.rate = p.get_bandwidth("rate", default_rate, "data rate per direction", rate_source);
  const std::string cable = p.get_text("cable", "2 m", "cable length (propagation about 5 ns/m)", "in-rack cabling");
  const Time per_m = p.get_time("cable_delay", "5 ns", "propagation per metre", "about 5 ns/m in fibre and copper");
  const Time phy = p.get_time("phy_latency", "0 ns", "PHY, FEC and MAC latency one way",
                              "not included unless given: no published figure here");
  c.mtu = p.get_int("mtu", 4096, 256, 4096, "path MTU: RDMA payload per packet", "IBTA: 256-4096 B path MTUs");
  if (c.mtu & (c.mtu - 1)) p.fail("mtu", "the path MTU must be a power of two");
  double meters = 0;
  if (!parse_length(cable, meters)) p.fail("cable", fmt::format("\"{}\" is not a length (expected e.g. \"2 m\")", cable));
  c.latency = scale(per_m, meters) + phy;
  if (!p.describing() && !c.rate.is_positive()) p.fail("rate", "the rate must be positive");
  return c;
}

WireFormat format(i64 mtu, i64 per_packet) {
  WireFormat w;
  w.max_payload = mtu;
  w.packet_overhead = per_packet;
  w.fixed_overhead = 16;  // RETH on the first packet of an RDMA WRITE (IBTA)
  return w;
}

LinkSpec make_roce(const Params& p) {
  const Common c = read_common(p, "400 Gb/s", "IEEE 802.3 400GBASE-R (ConnectX-7 class NIC)");
  // Preamble+SFD 8, gap 12, Ethernet header 14, FCS 4 (IEEE 802.3); IPv4 20, UDP 8
  // (RoCEv2, IBTA annex A17); BTH 12, ICRC 4 (IBTA).
  const i64 per_packet = 8 + 12 + 14 + 4 + 20 + 8 + 12 + 4;
  return LinkSpec{"ethernet", c.rate, c.latency, format(c.mtu, per_packet), {},
                  p.describing() ? "ethernet" : fmt::format("RoCEv2 {}", to_string(c.rate)), 0, "RoCE packets"};
}

LinkSpec make_ib(const Params& p) {
  const Common c = read_common(p, "400 Gb/s", "InfiniBand NDR 4x data rate");
  // LRH 8, BTH 12, ICRC 4, VCRC 2 (IBTA); link-level flow-control packets not counted.
  const i64 per_packet = 8 + 12 + 4 + 2;
  return LinkSpec{"infiniband", c.rate, c.latency, format(c.mtu, per_packet), {},
                  p.describing() ? "infiniband" : fmt::format("InfiniBand {}", to_string(c.rate)), 0,
                  "InfiniBand packets"};
}

}  // namespace

IOWALL_REGISTER_LINK("ethernet", "RoCEv2 over Ethernet: rate, cable, path MTU; Ethernet, IP/UDP and BTH per packet",
                     make_roce);
IOWALL_REGISTER_LINK("infiniband", "InfiniBand: rate, cable, path MTU; LRH, BTH and CRCs per packet", make_ib);

}  // namespace iowall::net
