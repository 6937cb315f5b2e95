#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "sim/core/event_queue.hpp"
#include "sim/core/rng.hpp"

using namespace iowall;

TEST_CASE("events fire in (time, insertion) order against a reference", "[engine]") {
  EventQueue q;
  Rng rng(7, "order");
  std::vector<std::pair<i64, int>> fired;
  std::multimap<i64, int> reference;  // multimap keeps insertion order among equal keys
  int next_id = 0;
  struct Ctx {
    EventQueue* q;
    std::vector<std::pair<i64, int>>* fired;
  } ctx{&q, &fired};
  // Times drawn from a small range so that ties are frequent.
  for (int i = 0; i < 20000; ++i) {
    const i64 t = static_cast<i64>(rng.below(500)) * 1000;
    const int id = next_id++;
    reference.emplace(t, id);
    q.schedule(Time(t), [c = &ctx, id] { c->fired->emplace_back(c->q->now().ps, id); });
  }
  while (q.step()) {
  }
  REQUIRE(fired.size() == reference.size());
  std::size_t i = 0;
  for (const auto& [t, id] : reference) {
    CHECK(fired[i].first == t);
    CHECK(fired[i].second == id);
    ++i;
  }
}

TEST_CASE("events scheduled while running keep the order (monotone radix heap)", "[engine]") {
  EventQueue q;
  Rng rng(3, "hold");
  std::vector<i64> times;
  struct Hold {
    EventQueue* q;
    Rng* rng;
    std::vector<i64>* times;
    int left;
    void fire() {
      times->push_back(q->now().ps);
      if (--left > 0) q->schedule_in(rng->exponential(us(1)), [this] { fire(); });
    }
  };
  std::vector<Hold> holds(100, Hold{&q, &rng, &times, 200});
  for (auto& h : holds) q.schedule(rng.exponential(us(1)), [hp = &h] { hp->fire(); });
  while (q.step()) {
  }
  CHECK(times.size() == 100 * 200);
  CHECK(std::is_sorted(times.begin(), times.end()));
  CHECK(q.executed() == 100 * 200);
}

TEST_CASE("cancellation is lazy and exact", "[engine]") {
  EventQueue q;
  int fired = 0;
  const EventId a = q.schedule(ns(10), [&fired] { fired += 1; });
  const EventId b = q.schedule(ns(20), [&fired] { fired += 10; });
  q.schedule(ns(30), [&fired] { fired += 100; });
  CHECK(q.pending() == 3);
  CHECK(q.cancel(b));
  CHECK_FALSE(q.cancel(b));  // twice is a no-op
  CHECK(q.pending() == 2);
  while (q.step()) {
  }
  CHECK(fired == 101);
  CHECK_FALSE(q.cancel(a));  // already ran
  // A cancelled slot is not reused while its entry is still queued: a new event
  // must not be lost or fired twice.
  const EventId c = q.schedule(ns(50), [&fired] { fired += 1000; });
  q.cancel(c);
  q.schedule(ns(60), [&fired] { fired += 10000; });
  while (q.step()) {
  }
  CHECK(fired == 10101);
}

TEST_CASE("scheduling in the past is refused", "[engine]") {
  EventQueue q;
  q.schedule(ns(100), [] {});
  q.step();
  CHECK_THROWS_AS(q.schedule(ns(50), [] {}), std::logic_error);
}
