// ECMP flow hashing against packet spraying on a two-leaf, four-spine fabric.
#include <catch2/catch.hpp>

#include <algorithm>

#include "models/net/experiments.hpp"
#include "models/net/multipath.hpp"
#include "tests/support/fabric_config.hpp"

using namespace iowall;
using namespace iowall::net;
using iowall::testing::fabric_config;

namespace {
MultipathResult run(Pattern pattern, Multipath mode, std::uint64_t seed) {
  const FabricConfig c = fabric_config();
  MultipathRun r;
  r.host_rate = r.uplink = Bandwidth::Gbps(100);
  r.pattern = pattern;
  r.mode = mode;
  r.duration = Time(40'000'000'000);
  r.measure_from = Time(20'000'000'000);
  SimContext ctx(seed);
  return run_multipath(ctx, c, r);
}
}  // namespace

TEST_CASE("spraying fills a non-blocking fabric that ECMP collisions leave idle", "[net][multipath]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const MultipathResult spray = run(Pattern::permutation, Multipath::spray, seed);
    const MultipathResult ecmp = run(Pattern::permutation, Multipath::ecmp, seed);
    INFO("seed " << seed << ": spray " << spray.total_Gbps << ", ecmp " << ecmp.total_Gbps);
    // Four senders at 100 Gb/s, four 100 Gb/s spines: spraying runs every flow at line rate.
    CHECK(spray.min_Gbps > 0.99 * 99.51);
    CHECK(spray.pauses == 0);
    // ECMP: two flows hashed onto one spine share its 100 Gb/s.
    const int most = *std::max_element(ecmp.spine_flows.begin(), ecmp.spine_flows.end());
    if (most >= 2) CHECK(ecmp.min_Gbps < 55);
    CHECK(ecmp.total_Gbps <= spray.total_Gbps);
    // One path per flow, FIFO queues: nothing arrives out of order.
    CHECK(ecmp.out_of_order == 0);
  }
}

TEST_CASE("on an incast the last hop limits both: spraying gains nothing", "[net][multipath]") {
  const MultipathResult spray = run(Pattern::incast, Multipath::spray, 1);
  const MultipathResult ecmp = run(Pattern::incast, Multipath::ecmp, 1);
  CHECK(spray.total_Gbps < 100);
  CHECK(ecmp.total_Gbps < 100);
  CHECK(spray.total_Gbps == Approx(ecmp.total_Gbps).epsilon(0.15));
}
