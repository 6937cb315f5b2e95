#include <catch2/catch.hpp>

#include "sim/core/component.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/route.hpp"
#include "sim/core/server.hpp"
#include "sim/core/timeline.hpp"
#include "tests/support/test_owner.hpp"

using namespace iowall;
using namespace iowall::literals;

using iowall::testing::Owner;

TEST_CASE("a timeline booked in arrival order starts jobs when a FIFO server would", "[engine]") {
  // The same random jobs, all arriving now, through a 3-unit server and a 3-unit timeline.
  SimContext ctx(1);
  Owner owner(ctx, "dev");
  Server server(owner, "s", 3);
  Timeline timeline(owner, "t", 3);
  Rng rng(7);
  std::vector<Time> served, booked;
  for (int i = 0; i < 200; ++i) {
    const Time service = us(1) + Time(static_cast<i64>(rng.below(9'000'000)));
    server.submit(service, Time(0), [&served](Time start, Time) { served.push_back(start); });
    booked.push_back(timeline.book(ctx.now(), service));
  }
  ctx.run();
  CHECK(served == booked);
  CHECK(timeline.busy_time() == server.busy_time());
}

TEST_CASE("a late booking for an earlier arrival fills a gap that fits, else goes after", "[engine]") {
  SimContext ctx(1);
  Owner owner(ctx, "dev");
  Timeline t(owner, "channel");
  CHECK(t.book(us(10), us(2)) == us(10));  // [10, 12)
  CHECK(t.book(us(20), us(2)) == us(20));  // [20, 22)
  CHECK(t.book(us(5), us(3)) == us(5));    // fits before 10
  CHECK(t.book(us(11), us(5)) == us(12));  // [12, 17) fits before 20
  CHECK(t.book(us(15), us(5)) == us(22));  // no room in [17, 20): after the last booking
  CHECK(t.jobs() == 5);
  CHECK(t.bookings() == 5);
}

TEST_CASE("charged work delays the next job, drain_time sees the queue", "[engine]") {
  SimContext ctx(1);
  Owner owner(ctx, "dev");
  Server s(owner, "link");
  s.charge(us(1));  // idle: absorbed, nobody waits
  Time second_start, second_end;
  s.submit(us(10), Time(0), {});
  CHECK(s.drain_time() == us(10));
  s.submit(
      us(10), Time(0), [&second_start](Time start, Time) { second_start = start; },
      [&ctx, &second_end] { second_end = ctx.now(); });
  CHECK(s.drain_time() == us(20));
  s.charge(us(2));  // busy: the job that starts next waits for it
  CHECK(s.drain_time() == us(22));
  ctx.run();
  CHECK(second_start == us(10));
  CHECK(second_end == us(22));  // the second job's service grew by the charged 2 us
  CHECK(s.busy_time() == us(23));
}

TEST_CASE("a signal waits behind queued chunks and takes one event", "[engine]") {
  SimContext ctx(1);
  Owner owner(ctx, "dev");
  Server link(owner, "link");
  Route r;
  Hop hop;
  hop.server = &link;
  hop.bandwidth = Bandwidth(8'000'000'000LL);  // 1 GB/s
  hop.latency = ns(100);
  r.hops.push_back(hop);
  RouteMover mover(ctx);
  Time chunk_done, signal_done;
  mover.send(r, Bytes(1000), [&] { chunk_done = ctx.now(); });          // 1 us on the link
  mover.signal(r, Bytes(100), [&] { signal_done = ctx.now(); });        // behind it: 0.1 us more
  const auto before = ctx.queue().executed();
  ctx.run();
  CHECK(chunk_done == us(1) + ns(100));
  CHECK(signal_done == us(1) + ns(100) + ns(100));
  CHECK(ctx.queue().executed() - before <= 4);  // the chunk's two events, the signal's one
}
