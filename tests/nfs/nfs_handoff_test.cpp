// The Linux NFS client hands each RPC to kernel threads (client_handoffs: rpciod for the
// task, the Receive completion's work, rpciod again for the reply) and the server once
// (server_handoffs: the Receive completion's work): each a wake-up and a context switch,
// handoff_cost of CPU that the RPC waits for. A side with hand-offs takes its arrival's
// interrupt on the connection's completion core, which leaves the idle state it entered
// first when it was idle (the menu governor's choice for its predicted idle). One cached
// 4 KiB READ at a time on topologies/dgx2-storage.json; the bounds are derived in the
// comments.
#include <catch2/catch.hpp>

#include "tests/nfs/nfs_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {
constexpr double kHandoffUs = 1.31;  // the transports' handoff_cost default

// Every CPU socket of the node given `states` (the xeon_8168 preset's client sockets
// otherwise have C1, C1E and C6).
Json with_idle_states(const std::string& states) {
  Json t = dgx2_storage_topology();
  for (Json& d : t["devices"])
    if (d["model"] == "cpu_socket") d["idle_states"] = states;
  return t;
}

Json lone_reads(int threads, int client, int server, const std::string& states) {
  Json w = nfs_reads("16 MiB", "4 KiB", threads, 1);
  w["kind"] = "random_read";
  return run_nfs(w,
                 Json::array({nfs_path("nfs", {{"server_cache_hit_ratio", 1.0},
                                               {"client_handoffs", client},
                                               {"server_handoffs", server}})}),
                 with_idle_states(states));
}
double latency_us(const Json& r) { return r["metrics"]["nfs"]["latency_mean_us"].get<double>(); }
double iops(const Json& r) { return r["metrics"]["nfs"]["iops"].get<double>(); }
}  // namespace

TEST_CASE("each hand-off adds its switch to a lone RPC", "[nfs][handoff]") {
  // No core sleeps and one READ is in flight: nothing queues, so the three client and one
  // server hand-offs add 4 x 1.31 = 5.24 us to every READ, and nothing else changes.
  const double none = latency_us(lone_reads(1, 0, 0, ""));
  const double linux_default = latency_us(lone_reads(1, 3, 1, ""));
  INFO("no hand-offs " << none << " us, 3 + 1 " << linux_default << " us");
  CHECK(linux_default - none == Approx(4 * kHandoffUs).margin(0.05));
  // One client hand-off runs the submission only; the server's alone adds one switch.
  CHECK(latency_us(lone_reads(1, 1, 0, "")) - none == Approx(kHandoffUs).margin(0.05));
  CHECK(latency_us(lone_reads(1, 0, 1, "")) - none == Approx(kHandoffUs).margin(0.05));
}

TEST_CASE("an idle completion core first leaves its C-state, a busy connection's does not", "[nfs][handoff][idle]") {
  const std::string states = "C1 2us 2us, C1E 10us 20us";
  SECTION("one READ at a time: the reply's core wakes from C1E, the I/O thread from C1") {
    // A READ takes ~27 us here with the cores awake, so both completion cores idle
    // ~20-25 us between READs and predict that. The reply's completion core (no task in
    // iowait on it) may exit at most its predicted idle: C1E (residency 20 <= 20-25,
    // exit 10): +10 us; the server's completion core predicts the same and exits C1E:
    // +10 us. The I/O thread sleeps in iowait on its own core, whose exit limit is its
    // prediction (~the READ's 27 us) / (1 + 10) = ~2.5 us: C1 (exit 2): +2 us. The
    // first READs' shorter predictions move the mean by well under 0.25 us.
    const double awake = latency_us(lone_reads(1, 3, 1, ""));
    const double asleep = latency_us(lone_reads(1, 3, 1, states));
    INFO("awake " << awake << " us, asleep " << asleep << " us");
    CHECK(asleep - awake == Approx(10.0 + 10.0 + 2.0).margin(0.25));
  }
  SECTION("64 READs at a time: the connection's cores stay awake, the rate is the receipt's") {
    // 64 threads hold one connection's receipt (XPT_BUSY before 5.13 is not set here:
    // at_dequeue, the default) busy enough that a reply arrives every few microseconds,
    // mostly while the core still processes the last: the rate changes by under 5%
    // (each exit, when there is one, is C1's 2 us against ~10 us of work per READ).
    const double awake = iops(lone_reads(64, 3, 1, ""));
    const double asleep = iops(lone_reads(64, 3, 1, states));
    INFO("awake " << awake << " IOPS, asleep " << asleep);
    CHECK(asleep == Approx(awake).epsilon(0.05));
  }
}
