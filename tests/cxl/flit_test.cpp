// CXL flit arithmetic against values computed by hand from the flit layouts.
#include <catch2/catch.hpp>

#include "models/cxl/flit_packer.hpp"
#include "sim/config/topology.hpp"

using namespace iowall;
using namespace iowall::cxl;

namespace {
// Flits a lone message takes on an idle link.
i64 flits_alone(const FlitLayout& l, const Message& m) {
  FlitPacker p(l);
  std::vector<std::uint32_t> done;
  p.push(m, 7);
  i64 flits = 0;
  while (!p.empty()) {
    p.next_flit(done);
    ++flits;
  }
  REQUIRE(done == std::vector<std::uint32_t>{7});
  return flits;
}
}  // namespace

TEST_CASE("flit layouts add up to 68 B and 256 B", "[cxl][flit]") {
  const FlitLayout a = layout_68();
  // 2 B protocol ID + 4 slots x 16 B + 2 B CRC; slot 0 loses the 4 B flit header.
  CHECK(2 + a.slots * kSlotBytes + 2 == a.flit_bytes);
  CHECK(a.hslot_bits == (16 - 4) * 8);
  const FlitLayout b = layout_256();
  // 2 B header + 14 B H-slot + 14 G-slots + 2 B credits + 8 B CRC + 6 B FEC.
  CHECK(2 + b.hslot_bits / 8 + (b.slots - 1) * kSlotBytes + 2 + 8 + 6 == b.flit_bytes);
}

TEST_CASE("a lone 64 B read costs two 68 B flits, a request one", "[cxl][flit]") {
  const MessageBits bits;
  // Flit 1: the DRS header in slot 0, data in slots 1-3; flit 2: the last 16 B.
  CHECK(flits_alone(layout_68(), read_data(bits)) == 2);
  CHECK(flits_alone(layout_68(), read_request(bits)) == 1);
  // 256 B: header in the H-slot, all four data slots in the same flit.
  CHECK(flits_alone(layout_256(), read_data(bits)) == 1);
}

TEST_CASE("streaming 64 B reads pay their flit share", "[cxl][flit]") {
  const MessageBits bits;
  // 68 B: a header flit carries 2 DRS headers (2 x 40 of 96 bits) and 3 data slots;
  // all-data flits carry 4. Two lines need 8 data slots: 1 header flit + 1.25
  // all-data flits = 2.25 flits, so 1.125 x 68 = 76.5 B per line.
  CHECK(wire_bytes_per_message(layout_68(), read_data(bits)) == Approx(76.5).epsilon(0.002));
  // One 87-bit request per slot: 4 per flit, 17 B each.
  CHECK(wire_bytes_per_message(layout_68(), read_request(bits)) == Approx(17.0).epsilon(0.002));
  // Writes: every RwD header needs its own slot 0 (87 bits), 3 data slots ride
  // along, one all-data flit per 4 lines: 1.25 flits = 85 B per line.
  CHECK(wire_bytes_per_message(layout_68(), write_request(bits)) == Approx(85.0).epsilon(0.002));
  // 256 B, no all-data flit: 2 headers in the H-slot plus g G-slots of 3 headers, the
  // other 14 - g slots data: (14 - g) / 4 = 2 + 3g -> g = 6/13, 44/13 lines per flit.
  CHECK(wire_bytes_per_message(layout_256(), read_data(bits)) == Approx(256.0 * 13 / 44).epsilon(0.003));
  CHECK(wire_bytes_per_message(layout_256(), read_request(bits)) == Approx(256.0 / 15).epsilon(0.002));
}

TEST_CASE("link rates: Gen5 line rate and the read payload ceiling", "[cxl][flit]") {
  LinkConfig c;
  c.gen = 5;
  c.lanes = 16;
  // 32 GT/s x 16 lanes / 8 bits x 128/130.
  CHECK(c.bandwidth().GBps_value() == Approx(64.0 * 128 / 130).epsilon(1e-6));
  CHECK(read_payload_ceiling(c).GBps_value() == Approx(64.0 * 128 / 130 * 64 / 76.5).epsilon(0.002));
  c.lanes = 8;
  CHECK(read_payload_ceiling(c).GBps_value() == Approx(32.0 * 128 / 130 * 64 / 76.5).epsilon(0.002));
}

TEST_CASE("the cxl link's chunk-level wire format agrees with the flit packer", "[cxl][flit]") {
  // Routes that cross a cxl link at chunk fidelity charge its LinkSpec wire format;
  // for a long transfer that must give the packer's streaming read ceiling.
  LinkConfig c;
  c.lanes = 8;
  const Json doc = {{"name", "direct"},
                    {"devices", {{{"id", "h"}, {"model", "cxl_host"}}, {{"id", "m"}, {"model", "cxl_type3"}}}},
                    {"links", {{{"a", "m.up"}, {"b", "h.cxl"}, {"cxl", {{"lanes", 8}}}}}}};
  SimContext ctx(1);
  Topology t(ctx, doc, "test");
  const Route& r = t.route(*t.find("m"), *t.find("h"));
  CHECK(r.bottleneck(Bytes(1 << 20)).GBps_value() == Approx(read_payload_ceiling(c).GBps_value()).epsilon(0.001));
}
