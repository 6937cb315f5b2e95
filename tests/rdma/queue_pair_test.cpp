// The HCA's data path for one work request, timed by hand, and the send queue's bound.
#include <catch2/catch.hpp>

#include "models/rdma/queue_pair.hpp"
#include "tests/support/test_owner.hpp"

using namespace iowall;
using namespace iowall::literals;
using iowall::testing::Owner;

namespace {
// One HCA whose queue memory sits behind a plain 8 GB/s, 100 ns link each way, and a
// data route of one 8 GB/s, 100 ns hop: no packet overhead, so every time is arithmetic.
struct Bench {
  SimContext ctx{1};
  Owner nic{ctx, "nic0"};
  Server down{nic, "down"}, up{nic, "up"}, wire{nic, "wire"};
  Route to_hca = one_hop(down), from_hca = one_hop(up), data = one_hop(wire);
  RouteMover mover{ctx};
  rdma::Hca hca{nic, mover, {Rate::per_s(200'000'000), 128, 8}, to_hca, from_hca};

  static Route one_hop(Server& s) {
    Route r;
    r.hops.push_back(Hop{&s, Bandwidth::GBps(8), nullptr, nullptr, ns(100), nullptr, s.name()});
    return r;
  }
};
}  // namespace

TEST_CASE("an RDMA transfer takes doorbell + WQE fetch + translation + engine + data + CQE", "[rdma][hca]") {
  Bench b;
  rdma::QueuePair qp(b.hca, 16);
  const rdma::WorkRequest wr{.bytes = 1_MiB, .data = &b.data, .local = {7, Bytes(0), 4_KiB}};
  Time delivered, completed;
  qp.post(wr, [&] { delivered = b.ctx.now(); }, [&] { completed = b.ctx.now(); });
  b.ctx.run();
  // At 8 GB/s a byte takes 1/8 ns. Doorbell 8 B: 1 + 100 ns; WQE fetch 64 B: 8 + 100 ns;
  // the 1 MiB buffer in 4 KiB pages is 256 MTT entries = 32 lines of 8, plus the MPT
  // entry: 33 misses the first time, each a 64 B read (108 ns), one after another;
  // the engine: 1 / 200 M/s = 5 ns; the data: 1,048,576 / 8 = 131,072 ns + 100 ns;
  // the 64 B CQE: 108 ns.
  const Time first_delivered = ns(101 + 108 + 33 * 108 + 5 + 131'072 + 100);
  CHECK(delivered == first_delivered);
  CHECK(completed == first_delivered + ns(108));
  CHECK(b.hca.mtt_misses() == 33);

  // The same buffer again: every translation line hits.
  const Time start = b.ctx.now();
  qp.post(wr, [&] { delivered = b.ctx.now(); }, [&] { completed = b.ctx.now(); });
  b.ctx.run();
  CHECK(delivered - start == ns(101 + 108 + 5 + 131'072 + 100));
  CHECK(completed - start == ns(101 + 108 + 5 + 131'072 + 100 + 108));
  CHECK(b.hca.mtt_misses() == 33);
  CHECK(b.hca.mtt_lookups() == 66);
}

TEST_CASE("GPU pages need 16x fewer translation lines than host pages", "[rdma][hca]") {
  Bench b;
  rdma::QueuePair qp(b.hca, 16);
  qp.post({.bytes = 1_MiB, .data = &b.data, .local = {1, Bytes(0), 64_KiB}}, {});
  b.ctx.run();
  CHECK(b.hca.mtt_misses() == 1 + 2);  // MPT + 16 GPU pages = 2 lines of 8
}

TEST_CASE("a queue pair never has more work requests outstanding than its depth", "[rdma][qp]") {
  Bench b;
  rdma::QueuePair qp(b.hca, 4);
  int delivered = 0, completed = 0;
  i64 most_seen = 0;
  for (int i = 0; i < 50; ++i)
    qp.post({.bytes = 4_KiB, .data = &b.data, .local = {1, Bytes(0)}},
            [&] {
              ++delivered;
              most_seen = std::max(most_seen, qp.outstanding());
            },
            [&] { ++completed; });
  CHECK(qp.outstanding() == 4);  // the rest wait: the poster is blocked
  CHECK(qp.waiting() == 46);
  b.ctx.run();
  CHECK(delivered == 50);
  CHECK(completed == 50);
  CHECK(qp.max_outstanding() == 4);
  CHECK(most_seen <= 4);
  CHECK(qp.blocked() == 46);
  CHECK(qp.outstanding() == 0);
}
