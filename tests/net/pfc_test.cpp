// PFC: the headroom formula from the 802.1Qbb terms, and the simulated skid against it.
#include <catch2/catch.hpp>

#include "models/net/experiments.hpp"
#include "tests/support/fabric_config.hpp"

using namespace iowall;
using namespace iowall::net;
using iowall::testing::fabric_config;

namespace {
Json jumbo(const char* buffer) {
  return {{"frame", "9216 B"}, {"xoff", "200 KB"}, {"xon", "100 KB"}, {"buffer", buffer}};
}
}  // namespace

TEST_CASE("PFC headroom adds the figures.md bit times at 100 Gb/s", "[net][pfc]") {
  const FabricConfig c = fabric_config(jumbo("1 MB"));
  // 2 x 73,888 (max frame at each end) + 672 + 122,880 + 201,728 + 2 x 100 m x 5 ns/m x 100 Gb/s.
  const i64 bits = 2 * 73888 + 672 + 122880 + 201728 + 2 * 50000;
  const Headroom h = pfc_headroom(c.pfc, Bandwidth::Gbps(100), Bytes(9236), 100);
  CHECK(h.total() == Time(bits * 10));  // 10 ps per bit at 100 Gb/s
  CHECK(h.bytes(Bandwidth::Gbps(100)) == Bytes(bits / 8));
  // Each further 100 m of cable adds a 1 us round trip: 12,500 B.
  const Headroom longer = pfc_headroom(c.pfc, Bandwidth::Gbps(100), Bytes(9236), 200);
  CHECK((longer.bytes(Bandwidth::Gbps(100)) - h.bytes(Bandwidth::Gbps(100))) == Bytes(12500));
}

TEST_CASE("simulated skid after XOFF reaches the headroom formula within one frame", "[net][pfc]") {
  for (double cable : {2.0, 100.0}) {
    SimContext ctx(7);
    const SkidResult r = run_skid(ctx, fabric_config(jumbo("1 MB")), Bandwidth::Gbps(100), cable, Time(20'000'000'000));
    INFO("cable " << cable << " m: skid " << r.max_skid.n << " B, headroom " << r.headroom.n << " B");
    CHECK(r.pauses > 50);
    CHECK(r.max_skid <= r.headroom);
    CHECK(r.max_skid > r.headroom - Bytes(9236));
    CHECK(r.drops == 0);
  }
}

TEST_CASE("a buffer short of the headroom loses frames despite PFC", "[net][pfc]") {
  const Headroom h = pfc_headroom(fabric_config(jumbo("1 MB")).pfc, Bandwidth::Gbps(100), Bytes(9236), 100);
  const i64 half = h.bytes(Bandwidth::Gbps(100)).n / 2;
  // The switch holds XOFF plus half the headroom (the skid run itself skips the check).
  const FabricConfig c = fabric_config(jumbo("1 MB"));
  FabricConfig tight = c;
  tight.buffer = c.pfc.xoff + Bytes(half);
  SimContext ctx(7);
  const SkidResult r = run_skid(ctx, tight, Bandwidth::Gbps(100), 100, Time(5'000'000'000));
  CHECK(r.drops > 0);
  CHECK_THROWS_AS(check_fabric(tight, Bandwidth::Gbps(100), 100, "test"), InputError);
  CHECK_NOTHROW(check_fabric(c, Bandwidth::Gbps(100), 100, "test"));
}

TEST_CASE("PAUSE spreads upstream and throttles a flow that shares no bottleneck", "[net][pfc]") {
  const Json lossless = {{"dcqcn", false}, {"ecn", false}};
  const Json lossy = {{"dcqcn", false}, {"ecn", false}, {"pfc", false}};
  const Bandwidth g100 = Bandwidth::Gbps(100), g400 = Bandwidth::Gbps(400), g10 = Bandwidth::Gbps(10);
  SimContext a(1), b(1);
  const SpreadResult pfc = run_spread(a, fabric_config(lossless), g100, g400, g10, 10, Time(20'000'000'000),
                                      Time(5'000'000'000));
  const SpreadResult drop = run_spread(b, fabric_config(lossy), g100, g400, g10, 10, Time(20'000'000'000),
                                       Time(5'000'000'000));
  // Without PFC the innocent flow runs at line rate and the culprit's excess is lost.
  CHECK(drop.innocent_Gbps > 0.99 * drop.innocent_alone_Gbps);
  CHECK(drop.drops > 0);
  CHECK(drop.culprit_Gbps == Approx(9.95).epsilon(0.02));
  // With PFC nothing is lost, but the innocent flow falls to the culprit's pace.
  CHECK(pfc.drops == 0);
  CHECK(pfc.pauses_upstream > 0);
  CHECK(pfc.innocent_Gbps < 0.2 * pfc.innocent_alone_Gbps);
  CHECK(pfc.innocent_paused > Time(10'000'000'000));
}

TEST_CASE("a 50-sender incast stays lossless only when every ingress's XOFF plus headroom fits the buffer",
          "[net][pfc]") {
  // 16 MB shared buffer, 100 Gb/s, 2 m cables, 4096 B frames: headroom about 49 KB per ingress.
  const Json base = {{"dcqcn", false}, {"ecn", false}};
  Json big = base, small = base;
  big["xoff"] = "1 MB";      // 50 x 1.05 MB > 16 MB
  big["xon"] = "512 KB";
  small["xoff"] = "256 KB";  // 50 x 0.31 MB < 16 MB
  small["xon"] = "128 KB";
  SimContext a(1), b(1);
  const IncastResult lossy = run_incast(a, fabric_config(big), 50, Bandwidth::Gbps(100), 2, Time(10'000'000'000),
                                        Time(5'000'000'000), 0.25, Time(5'000'000'000));
  const IncastResult lossless = run_incast(b, fabric_config(small), 50, Bandwidth::Gbps(100), 2, Time(10'000'000'000),
                                           Time(5'000'000'000), 0.25, Time(5'000'000'000));
  CHECK(lossy.drops > 0);
  CHECK(lossless.drops == 0);
  CHECK(lossless.pauses > 0);
  CHECK(lossless.jain > 0.99);
}
