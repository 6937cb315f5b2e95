// Message flows on the packet fabric (what an RDMA queue pair's data becomes on a
// per-packet network): messages arrive whole, in order, and senders that keep sending
// messages share a congested port fairly under DCQCN.
#include <catch2/catch.hpp>

#include <vector>

#include "models/net/experiments.hpp"
#include "tests/support/fabric_config.hpp"

using namespace iowall;
using namespace iowall::net;
using iowall::testing::fabric_config;
using iowall::testing::k100G;

namespace {
// N hosts into one receiver through one switch, each with one message flow.
struct Incast {
  SimContext ctx{1};
  Fabric fabric;
  std::vector<int> flows;
  int into_receiver = -1;
  Incast(const FabricConfig& c, int senders) : fabric(ctx, "f", c) {
    const int sw = fabric.add_switch("sw"), rx = fabric.add_host("rx");
    fabric.connect(sw, rx, k100G, 2);
    into_receiver = fabric.port_between(sw, rx);
    for (int i = 0; i < senders; ++i) {
      const int h = fabric.add_host("h" + std::to_string(i));
      fabric.connect(h, sw, k100G, 2);
      flows.push_back(fabric.open_flow({h, sw, rx}));
    }
  }
};

// Keeps one message of `bytes` in flight per flow until `until`: the next is sent when
// the last one's final frame arrives, as a target answering back-to-back reads would.
struct ClosedLoop {
  Incast& net;
  Bytes bytes;
  Time until;
  std::vector<int> sent, firsts, lasts;
  void next(int i) {
    if (net.ctx.now() >= until) return;
    ++sent[i];
    net.fabric.send_message(net.flows[i], bytes, [this, i] { ++firsts[i]; }, [this, i] {
      ++lasts[i];
      next(i);
    });
  }
  void start() {
    sent.assign(net.flows.size(), 0);
    firsts = lasts = sent;
    for (std::size_t i = 0; i < net.flows.size(); ++i) next(static_cast<int>(i));
  }
};
}  // namespace

TEST_CASE("a message flow delivers every message whole and in order, then idles", "[net][message]") {
  Incast net(fabric_config(), 1);
  std::vector<int> order;
  const Bytes sizes[] = {Bytes(100), Bytes(4096), Bytes(10'000), Bytes(1)};
  for (int i = 0; i < 4; ++i) net.fabric.send_message(net.flows[0], sizes[i], {}, [&order, i] { order.push_back(i); });
  net.ctx.run();
  CHECK(order == std::vector<int>{0, 1, 2, 3});
  // 10,000 B needs three 4096 B frames: each message keeps its own frames.
  CHECK(net.fabric.flow(net.flows[0]).delivered == Bytes(100 + 4096 + 10'000 + 1));
  CHECK(net.fabric.pending_work().empty());
  // Idle flows leave no timers behind: the run ended, and a later message still goes.
  bool late = false;
  net.fabric.send_message(net.flows[0], Bytes(64), {}, [&late] { late = true; });
  net.ctx.run();
  CHECK(late);
}

TEST_CASE("message flows in an 8:1 incast: lossless under PFC, fair under DCQCN", "[net][message][dcqcn]") {
  Incast net(fabric_config(), 8);
  const Time until = ms(300);
  ClosedLoop loop{net, Bytes(1 << 20), until, {}, {}, {}};
  loop.start();
  net.ctx.run();
  CHECK(net.fabric.drops() == 0);
  std::vector<double> share;
  std::uint64_t cnps = 0;
  for (std::size_t i = 0; i < net.flows.size(); ++i) {
    const FlowStats& f = net.fabric.flow(net.flows[i]);
    CHECK(loop.firsts[i] == loop.sent[i]);
    CHECK(loop.lasts[i] == loop.sent[i]);
    CHECK(f.delivered == Bytes(loop.sent[i] * (i64{1} << 20)));
    // Bytes each sender moved over 100-300 ms, once DCQCN has settled.
    share.push_back(static_cast<double>((net.fabric.delivered_before(net.flows[i], until) -
                                         net.fabric.delivered_before(net.flows[i], ms(100))).n));
    CHECK(f.min_rate < k100G);  // every sender was cut
    cnps += f.cnps;
  }
  CHECK(cnps > 0);
  INFO("Jain index " << jain_index(share));
  CHECK(jain_index(share) > 0.98);
  // Together they keep the receiver's port busy.
  double total = 0;
  for (double b : share) total += b;
  CHECK(total * 8 / 0.200 / 1e9 > 80);
}
