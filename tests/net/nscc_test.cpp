// Ultra Ethernet's NSCC window (ECN + delay) by hand, and on the same incast as DCQCN.
#include <catch2/catch.hpp>

#include "models/net/experiments.hpp"
#include "tests/support/fabric_config.hpp"

using namespace iowall;
using namespace iowall::net;
using iowall::testing::fabric_config;
using iowall::testing::k100G;

TEST_CASE("NSCC: decrease by the delay's excess once per round trip, increase below target", "[net][nscc]") {
  const FabricConfig c = fabric_config({{"nscc", true}});
  CHECK_FALSE(c.dcqcn.enabled);  // one congestion control per sender
  NsccWindow w(c.nscc, k100G, Bytes(4096));
  // Starts at one bandwidth-delay product of the 8 us target: 100 KB.
  CHECK(w.window().n == 100'000);
  // Marked, 16 us round trip: cut by md x (16 - 8) / 16 = a quarter.
  w.on_ack(Bytes(4096), true, us(16), us(100));
  CHECK(w.window().n == 75'000);
  // A second marked ACK within the same round trip changes nothing.
  w.on_ack(Bytes(4096), true, us(16), us(110));
  CHECK(w.window().n == 75'000);
  CHECK(w.decreases() == 1);
  // Marked but under target: a short queue's transient mark, no change.
  w.on_ack(Bytes(4096), true, us(4), us(200));
  CHECK(w.window().n == 75'000);
  // Unmarked at half the target: proportional increase, pi_gain x (8 - 4) / 8 frames.
  w.on_ack(Bytes(4096), false, us(4), us(210));
  CHECK(w.window().n == 75'000 + 512);
  // Unmarked over target (a queue without marks): one frame per window.
  const i64 before = w.window().n;
  w.on_ack(Bytes(4096), false, us(12), us(220));
  CHECK(w.window().n == before + 4096 * 4096 / before);
}

TEST_CASE("NSCC on DCQCN's incast: the link stays full with the queue between Kmin and Kmax", "[net][nscc]") {
  const Time duration(300'000'000'000), from(100'000'000'000), window(50'000'000'000);
  SimContext a(1), b(1);
  const IncastResult dcqcn = run_incast(a, fabric_config(), 8, k100G, 2, duration, from, 0.2, window);
  const FabricConfig nc = fabric_config({{"nscc", true}});
  const IncastResult nscc = run_incast(b, nc, 8, k100G, 2, duration, from, 0.2, window);
  INFO("dcqcn " << dcqcn.total_Gbps << " Gb/s, queue " << dcqcn.mean_queue << "; nscc " << nscc.total_Gbps
                << " Gb/s, queue " << nscc.mean_queue << " min " << nscc.min_queue.n);
  // DCQCN at the ConnectX defaults drains the queue between cuts (reports/net.md).
  CHECK(dcqcn.total_Gbps < 90);
  // NSCC's window holds a standing queue near its delay target: the link never idles.
  CHECK(nscc.total_Gbps > 99);
  CHECK(nscc.jain > 0.99);
  CHECK(nscc.min_queue > Bytes(0));
  CHECK(nscc.mean_queue > static_cast<double>(nc.ecn.kmin.n));
  CHECK(nscc.mean_queue < static_cast<double>(nc.ecn.kmax.n));
  CHECK(nscc.pauses == 0);
  CHECK(nscc.drops == 0);
}

TEST_CASE("NSCC parameters out of range are bad input", "[net][nscc][errors]") {
  CHECK_THROWS_AS(fabric_config({{"nscc_md", 0.0}}), InputError);
  CHECK_THROWS_AS(fabric_config({{"nscc_md", 1.5}}), InputError);
  CHECK_THROWS_AS(fabric_config({{"nscc_target_delay", "0 us"}}), InputError);
  CHECK_THROWS_AS(fabric_config({{"nscc_pi_gain", -1.0}}), InputError);
}
