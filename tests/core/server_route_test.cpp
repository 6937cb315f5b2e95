#include <catch2/catch.hpp>

#include "sim/core/component.hpp"
#include "sim/core/error.hpp"
#include "sim/core/route.hpp"
#include "sim/core/server.hpp"
#include "tests/support/test_owner.hpp"

using namespace iowall;
using namespace iowall::literals;

using iowall::testing::Owner;

TEST_CASE("a server with k units serves FIFO and reports utilization", "[engine]") {
  SimContext ctx(1);
  Owner owner(ctx, "dev");
  Server s(owner, "cores", 2);
  std::vector<int> order;
  for (int i = 0; i < 4; ++i)
    s.submit(us(10), Time(0), {}, [&order, i] { order.push_back(i); });
  ctx.run();
  CHECK(order == std::vector<int>{0, 1, 2, 3});
  CHECK(ctx.now() == us(20));  // two at a time, 10 us each
  CHECK(s.utilization(Time(0), ctx.now()) == Approx(1.0));
  CHECK(s.jobs() == 4);
}

TEST_CASE("a full queue refuses work and wakes a waiter when space opens", "[engine]") {
  SimContext ctx(1);
  Owner owner(ctx, "dev");
  Server s(owner, "q", 1, /*queue_capacity=*/1);
  CHECK(s.submit(us(1), Time(0), {}));   // starts at once
  CHECK(s.submit(us(1), Time(0), {}));   // waits in the queue
  CHECK_FALSE(s.submit(us(1), Time(0), {}));  // backpressure
  bool woke = false;
  s.wait_for_space([&woke] { woke = true; });
  CHECK_FALSE(woke);
  ctx.run();
  CHECK(woke);
}

TEST_CASE("chunks over a route go at the narrowest hop's pace, with cut-through latency", "[engine]") {
  SimContext ctx(1);
  Owner owner(ctx, "net");
  Server fast(owner, "fast"), slow(owner, "slow"), fast2(owner, "fast2");
  Route route;
  route.hops.push_back(Hop{&fast, Bandwidth::GBps(64), nullptr, nullptr, ns(100), nullptr, "fast"});
  route.hops.push_back(Hop{&slow, Bandwidth::GBps(16), nullptr, nullptr, ns(100), nullptr, "slow"});
  route.hops.push_back(Hop{&fast2, Bandwidth::GBps(64), nullptr, nullptr, ns(100), nullptr, "fast2"});
  RouteMover mover(ctx);
  int done = 0;
  const int chunks = 1000;
  for (int i = 0; i < chunks; ++i) mover.send(route, 64_KiB, [&done] { ++done; });
  ctx.run();
  CHECK(done == chunks);
  const double gbps = gb_per_s(Bytes(64 * 1024) * chunks, ctx.now());
  CHECK(gbps == Approx(16.0).epsilon(0.01));
  CHECK(gbps <= 16.0);
  // The slow hop is saturated; the fast ones are busy only for their own transfer time.
  CHECK(slow.utilization(Time(0), ctx.now()) == Approx(1.0).epsilon(0.01));
  CHECK(fast2.utilization(Time(0), ctx.now()) == Approx(0.25).epsilon(0.01));

  // One chunk alone: cut-through, so latency is the slow hop's serialization plus
  // the three hop latencies, not the sum of three serializations.
  SimContext ctx2(1);
  Owner owner2(ctx2, "net");
  Server a(owner2, "a"), b(owner2, "b"), c(owner2, "c");
  Route r2 = route;
  r2.hops[0].server = &a;
  r2.hops[1].server = &b;
  r2.hops[2].server = &c;
  RouteMover m2(ctx2);
  Time arrived;
  m2.send(r2, 64_KiB, [&arrived, &ctx2] { arrived = ctx2.now(); });
  ctx2.run();
  const Time slow_ser = transfer_time(64_KiB, Bandwidth::GBps(16));
  CHECK(arrived == slow_ser + ns(300));
}

TEST_CASE("the watchdog names components stuck with work and nothing scheduled", "[engine]") {
  struct Stuck : Component {
    using Component::Component;
    std::string pending_work() const override { return "3 commands waiting for a doorbell"; }
  };
  SimContext ctx(1);
  Stuck s(ctx, "nvme7");
  try {
    ctx.run();
    FAIL("expected a deadlock report");
  } catch (const RunError& e) {
    const std::string what = e.what();
    CHECK(what.find("deadlock") != std::string::npos);
    CHECK(what.find("nvme7 (3 commands waiting for a doorbell)") != std::string::npos);
  }
}

TEST_CASE("random streams depend on the seed and the component path only", "[engine]") {
  Rng a(42, "node0/nvme3"), b(42, "node0/nvme3"), c(42, "node0/nvme4"), d(43, "node0/nvme3");
  const auto va = a.next();
  CHECK(va == b.next());
  CHECK(va != c.next());
  CHECK(va != d.next());
}

TEST_CASE("a gauge's time series holds the mean of each period", "[stats]") {
  TimeWeighted g;
  g.enable_series(us(10));
  g.set(us(0), 1);
  g.set(us(5), 0);   // busy half of period 0
  g.set(us(12), 2);  // 2 for the last 8 us of period 1
  const auto s = g.series(us(30));
  REQUIRE(s.size() == 3);
  CHECK(s[0] == Approx(0.5));
  CHECK(s[1] == Approx(1.6));
  CHECK(s[2] == Approx(2.0));
  CHECK(g.mean(Time(0), us(30)) == Approx((5.0 + 2 * 18.0) / 30.0));
}
