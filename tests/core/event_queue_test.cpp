#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "sim/core/event_queue.hpp"
#include "sim/core/error.hpp"
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

TEST_CASE("scheduling in the past is refused as a clock overflow", "[engine]") {
  // Only a sum that wrapped past 2^63 ps lands before now: a run error that says so.
  EventQueue q;
  q.schedule(ns(100), [] {});
  q.step();
  CHECK_THROWS_WITH(q.schedule(ns(50), [] {}), Catch::Contains("overflowed"));
  CHECK_THROWS_AS(q.schedule(ns(50), [] {}), RunError);
}

// Against a reference (a multimap keeps insertion order among equal keys): events that
// schedule more events at distances from zero to seconds, so that they land in the
// same radix bucket and in buckets far apart, either side of 2^k ps boundaries,
// with ties at every distance and cancellations of pending events.
TEST_CASE("events from zero to seconds ahead keep (time, insertion) order under rescheduling and cancels", "[engine]") {
  EventQueue q;
  Rng rng(11, "calendar");
  std::multimap<i64, std::pair<int, EventId>> reference;
  std::map<int, std::multimap<i64, std::pair<int, EventId>>::iterator> by_id;
  std::vector<int> fired, expected;
  const i64 distances[] = {0, 1, 1000, 16383, 16384, 16385, 50'000, 1'000'000, 100'000'000,
                           268'000'000, 268'435'456, 300'000'000, 5'000'000'000, 1'000'000'000'000};
  int next_id = 0;
  struct Env {
    EventQueue* q;
    Rng* rng;
    std::vector<int>* fired;
    const i64* distances;
    int* next_id;
    std::multimap<i64, std::pair<int, EventId>>* reference;
    std::map<int, std::multimap<i64, std::pair<int, EventId>>::iterator>* by_id;
    int budget;
    void add(i64 at) {
      const int id = (*next_id)++;
      const EventId e = q->schedule(Time(at), [this, id] { fire(id); });
      (*by_id)[id] = reference->emplace(at, std::make_pair(id, e));
    }
    void fire(int id) {
      fired->push_back(id);
      if (budget <= 0) return;
      const int children = static_cast<int>(rng->below(3));
      for (int c = 0; c < children && budget > 0; ++c, --budget) {
        // Round some distances so that ties are frequent.
        const i64 d = distances[rng->below(14)];
        add(q->now().ps + d);
      }
      if (rng->below(10) == 0 && !by_id->empty()) {  // cancel a random pending event
        auto it = by_id->lower_bound(static_cast<int>(rng->below(static_cast<std::uint64_t>(*next_id))));
        if (it != by_id->end() && it->first != id) {
          CHECK(q->cancel(it->second->second.second));
          reference->erase(it->second);
          by_id->erase(it);
        }
      }
    }
  } env{&q, &rng, &fired, distances, &next_id, &reference, &by_id, 60000};
  for (int i = 0; i < 200; ++i) env.add(static_cast<i64>(rng.below(20)) * 16384);
  // The reference fires its earliest entry (first inserted among equals) each time.
  while (!reference.empty()) {
    const auto it = reference.begin();
    expected.push_back(it->second.first);
    const int id = it->second.first;
    const i64 want_time = it->first;
    by_id.erase(id);
    reference.erase(it);
    REQUIRE(q.step());
    INFO("expected id " << id << " at " << want_time << " ps; fired at " << q.now().ps << " ps");
    REQUIRE(fired.back() == id);
  }
  CHECK_FALSE(q.step());
  CHECK(fired == expected);
  CHECK(q.pending() == 0);
}

TEST_CASE("bucket blocks go back to the pool: refilling to the same pending count grows no storage", "[engine]") {
  EventQueue q;
  Rng rng(5, "refill");
  auto fill_and_drain = [&] {
    // Ties in bunches of about 100 so that buckets chain several blocks.
    for (int i = 0; i < 50000; ++i)
      q.schedule(q.now() + Time(static_cast<i64>(rng.below(500)) * 1000), [] {});
    while (q.step()) {
    }
  };
  fill_and_drain();
  const std::size_t after_first = q.memory_bytes();
  for (int round = 0; round < 5; ++round) fill_and_drain();
  CHECK(q.memory_bytes() == after_first);
  CHECK(q.executed() == 6 * 50000);
}
