// NVMe queue pairs and the host driver's notification against a mock controller that
// finishes every command a fixed latency after it fetches it, with unlimited parallelism
// and no queue traffic (null routes): what is left is the queues' own mechanism. The
// bounds follow from the mock's latency L and the driver's delays:
//   - a queue holds at most queue_limit() commands (SQ entries - 1, or CIDs); each
//     holds its slot from submission until it is reaped, L + poll_delay later, so N
//     commands take N / limit rounds of L + poll_delay;
//   - with interrupts coalesced by count c and time T, fewer than c completions wait T
//     from the first posted entry, then the interrupt latency; c completions raise it at once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "models/nvme/nvme_queues.hpp"
#include "sim/core/sim_context.hpp"
#include "tests/support/test_owner.hpp"

namespace {

using namespace iowall;
using namespace iowall::literals;
using iowall::testing::Owner;

// Executes each fetched command after `latency`, any number at once, and records how
// many it held at most and when the host reaped each.
struct MockController {
  MockController(SimContext& c, Time l) : ctx(c), latency(l) {}
  SimContext& ctx;
  Time latency;
  NvmeQueues* queues = nullptr;
  int in_flight = 0, max_in_flight = 0;
  std::vector<Time> reaped;

  void execute(std::uint32_t cmd) {
    max_in_flight = std::max(max_in_flight, ++in_flight);
    ctx.in(latency, [this, cmd] {
      --in_flight;
      queues->complete(cmd);
    });
  }
};

struct Rig {
  SimContext ctx{1};
  Owner owner{ctx, "mock"};
  MockController ctl;
  NvmeQueues queues;
  Rig(const NvmeQueueConfig& c, Time latency)
      : ctl(ctx, latency),
        queues(owner, c, [this](std::uint32_t cmd) { ctl.execute(cmd); },
               [this](std::uint32_t) { ctl.reaped.push_back(ctx.now()); }) {
    ctl.queues = &queues;
  }
  void submit(int n) {
    for (int i = 0; i < n; ++i) queues.submit(static_cast<std::uint32_t>(i), 0, NvmeQueueRoutes{});
  }
};

NvmeQueueConfig polled(i64 entries, int cid_bits) {
  NvmeQueueConfig c;
  c.queue_entries = entries;
  c.cid_bits = cid_bits;
  c.poll_every_queue = true;
  c.poll_delay = 1_us;
  return c;
}

// 64 commands at L = 10 us, poll 1 us, through a queue that holds 8: 8 rounds of 11 us
// = 88 us, and the controller never holds more than 8.
void check_eight_at_a_time(const NvmeQueueConfig& c) {
  Rig r(c, 10_us);
  REQUIRE(r.queues.queue_limit() == 8);
  r.submit(64);
  r.ctx.run();
  REQUIRE(r.ctl.reaped.size() == 64);
  CHECK(r.ctl.max_in_flight == 8);
  const Time last = *std::max_element(r.ctl.reaped.begin(), r.ctl.reaped.end());
  CHECK(last >= 88_us);           // no more than 8 at once, each held L + poll delay
  CHECK(last <= 88_us + 100_ns);  // and nothing else costs time here (null routes, free doorbells)
  CHECK(r.queues.outstanding() == 0);
}

}  // namespace

TEST_CASE("an NVMe queue pair holds SQ entries - 1 commands: rounds of L + poll delay", "[nvme][queues][mock]") {
  check_eight_at_a_time(polled(9, 16));  // 9 entries: 8 in flight
}

TEST_CASE("NVMe command IDs bound a queue pair when fewer than its entries", "[nvme][queues][mock]") {
  check_eight_at_a_time(polled(1024, 3));  // 3-bit CIDs: 8 however deep the SQ
}

TEST_CASE("a deep queue pair runs every command at once: one round of L + poll delay", "[nvme][queues][mock]") {
  Rig r(polled(1024, 16), 10_us);
  r.submit(64);
  r.ctx.run();
  REQUIRE(r.ctl.reaped.size() == 64);
  CHECK(r.ctl.max_in_flight == 64);
  for (Time t : r.ctl.reaped) CHECK(t == 11_us);
}

TEST_CASE("interrupt coalescing: fewer than the count wait the aggregation time", "[nvme][driver][mock]") {
  // L = 10 us, interrupt latency 2 us, coalescing by 4 entries or 50 us. Each of `n`
  // commands is reaped at `expected` (and nothing else costs time here).
  NvmeQueueConfig c;
  c.interrupt_latency = 2_us;
  c.coalesce_count = 4;
  c.coalesce_time = 50_us;
  const auto check_reaped = [&c](int n, Time expected) {
    Rig r(c, 10_us);
    r.submit(n);
    r.ctx.run();
    REQUIRE(r.ctl.reaped.size() == static_cast<std::size_t>(n));
    for (Time t : r.ctl.reaped) {
      CHECK(t >= expected);
      CHECK(t <= expected + 100_ns);
    }
  };
  SECTION("3 completions: the timer, armed at the first entry (10 us), fires at 60 us; reaped at 62 us") {
    check_reaped(3, 10_us + 50_us + 2_us);
  }
  SECTION("4 completions: the count is reached at 10 us; reaped at 12 us, long before the timer") {
    check_reaped(4, 10_us + 2_us);
  }
}
