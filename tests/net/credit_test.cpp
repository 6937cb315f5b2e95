// Credit-based flow control (InfiniBand): no frame arrives without room, no PAUSE,
// and head-of-line blocking still spreads to a flow that shares no bottleneck.
#include <catch2/catch.hpp>

#include "models/net/experiments.hpp"
#include "tests/support/fabric_config.hpp"

using namespace iowall;
using namespace iowall::net;
using iowall::testing::fabric_config;

TEST_CASE("credits bound every ingress, lose nothing, and still spread congestion", "[net][credit]") {
  const FabricConfig c = fabric_config({{"credit", true}, {"credits", "128 KiB"}, {"dcqcn", false}, {"ecn", false}});
  CHECK_FALSE(c.pfc.enabled);
  SimContext ctx(1);
  const SpreadResult r = run_spread(ctx, c, Bandwidth::Gbps(100), Bandwidth::Gbps(400), Bandwidth::Gbps(10), 10,
                                    Time(20'000'000'000), Time(5'000'000'000));
  CHECK(r.drops == 0);
  CHECK(r.pauses_upstream == 0);
  CHECK(r.max_held <= Bytes(128 * 1024));
  CHECK(r.max_held > Bytes(100 * 1024));  // the slow receiver's backlog fills the credits
  CHECK(r.culprit_Gbps == Approx(9.95).epsilon(0.02));
  CHECK(r.innocent_Gbps < 0.2 * r.innocent_alone_Gbps);
}

TEST_CASE("credits and PFC together, or credits above the buffer, are bad input", "[net][credit][errors]") {
  CHECK_THROWS_AS(fabric_config({{"credit", true}, {"pfc", true}}), InputError);
  CHECK_THROWS_AS(fabric_config({{"credit", true}, {"credits", "0 B"}}), InputError);
  const FabricConfig big = fabric_config({{"credit", true}, {"credits", "32 MB"}});
  CHECK_THROWS_AS(check_fabric(big, Bandwidth::Gbps(100), 2, "test"), InputError);
}
