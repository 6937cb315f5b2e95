// The CXL fabric: one load's latency as the sum of its parts, the coherence round
// trip, and what a loaded tier delivers (link ceiling, media ceiling, pooling).
#include <catch2/catch.hpp>

#include "models/cxl/cxl_switch.hpp"
#include "sim/run/study_runner.hpp"
#include "tests/cxl/cxl_fixture.hpp"

using namespace iowall;
using namespace iowall::cxl;
using iowall::testing::CxlBench;
using iowall::testing::kv_load;

namespace {
TierSetup pooled(i64 requesters, int lanes) {
  TierSetup s;
  s.requesters = requesters;
  s.lanes = lanes;
  return s;
}
// Serialization of `flits` flits on the link.
Time flits(i64 n, const TierSetup& s) {
  LinkConfig c;
  c.gen = s.gen;
  c.lanes = s.lanes;
  return transfer_time(Bytes(n * 68), c.bandwidth());
}
}  // namespace

TEST_CASE("a 64 B load through a switch = host fabric + links + switch + device", "[cxl][latency]") {
  const TierSetup s = pooled(1, 8);
  CxlBench b(s);
  const auto& host = b.device<CxlHost>("host0");
  const auto& sw = b.device<CxlSwitch>("cxlsw0");
  const auto& mem = b.device<CxlType3>("cxlmem0");
  const Time link = Time(25'000);  // the cxl link's default latency
  // Request: one flit per link; response: two flits per link (header + 3 data slots, then 1).
  const Time expected = host.fabric_latency + link * 4 + sw.latency * 2 + mem.controller_latency * 2 +
                        mem.media_latency + transfer_time(Bytes(64), mem.media_bandwidth) + flits(1, s) * 2 +
                        flits(2, s) * 2;
  CHECK(b.load_latency("host0") == expected);
  // About 455 ns: 4.5x the host's local DRAM, inside arXiv 2405.14209's 2-5x.
  CHECK(expected.ns() == Approx(454.7).margin(0.5));
}

TEST_CASE("a direct-attached load sits 70-90 ns over local DRAM (Pond)", "[cxl][latency]") {
  TierSetup s = pooled(1, 8);
  s.direct = true;
  CxlBench b(s);
  const Time t = b.load_latency("host0");
  const double over = t.ns() - b.device<CxlHost>("host0").local_dram_latency.ns();
  CHECK(over >= 70);
  CHECK(over <= 90);
}

TEST_CASE("a load of a line another host caches waits for the back-invalidate round trip", "[cxl][coherence]") {
  const TierSetup s = pooled(2, 8);
  CxlBench plain(s), snooped(s);
  const Time base = plain.load_latency("host0");
  const Time with_snoop = snooped.load_latency("host0", "host1");
  const auto& sw = snooped.device<CxlSwitch>("cxlsw0");
  const auto& holder = snooped.device<CxlHost>("host1");
  // BISnp device -> switch -> host1 and BIRsp back, one flit per link each way, in
  // parallel with the media access (which it outlasts).
  const auto& mem = snooped.device<CxlType3>("cxlmem0");
  const Time snoop = Time(25'000) * 4 + sw.latency * 2 + holder.snoop_latency + flits(1, s) * 4;
  const Time media = mem.controller_latency * 2 + mem.media_latency + transfer_time(Bytes(64), mem.media_bandwidth);
  CHECK(with_snoop - base == snoop - media);
}

TEST_CASE("throughput never exceeds the link's read payload ceiling", "[cxl][bound]") {
  for (const int lanes : {4, 8}) {
    TierSetup s = pooled(1, lanes);
    s.direct = true;
    const TierPoint p = run_cxl_tier(scenario_runner(), cxl_topology(s), "test", kv_load(Bytes(64 * 1024), 8, 64), 1);
    LinkConfig c;
    c.lanes = lanes;
    const double ceiling = read_payload_ceiling(c).GBps_value();
    INFO("x" << lanes << ": " << p.moved_GBps << " GB/s vs ceiling " << ceiling);
    CHECK(p.moved_GBps <= ceiling);
    CHECK(p.moved_GBps >= 0.95 * ceiling);  // a busy link is what limits
    CHECK(p.limited_by.find("flits>host0.cxl") != std::string::npos);
  }
}

TEST_CASE("an x16 link outruns the device: its media bandwidth limits", "[cxl][bound]") {
  TierSetup s = pooled(1, 16);
  s.direct = true;
  const TierPoint p = run_cxl_tier(scenario_runner(), cxl_topology(s), "test", kv_load(Bytes(64 * 1024), 8, 64), 1);
  // 36 GB/s of media under a 52.7 GB/s link ceiling. (The link still reads as busy:
  // lines trickling out of the media leave in part-filled flits.)
  CHECK(p.moved_GBps <= 36.0);
  CHECK(p.moved_GBps >= 0.95 * 36.0);
}

TEST_CASE("two hosts pooling one device each get about half", "[cxl][pooling]") {
  const KvCacheLoad load = kv_load(Bytes(16 * 1024), 4, 128);
  const TierPoint one = run_cxl_tier(scenario_runner(), cxl_topology(pooled(1, 8)), "test", load, 1);
  const TierPoint two = run_cxl_tier(scenario_runner(), cxl_topology(pooled(2, 8)), "test", load, 1);
  REQUIRE(two.per_requester_GBps.size() == 2);
  for (const double each : two.per_requester_GBps) CHECK(each == Approx(one.useful_GBps / 2).epsilon(0.05));
  CHECK(two.useful_GBps == Approx(one.useful_GBps).epsilon(0.05));
  CHECK(two.latency_mean_us > 1.8 * one.latency_mean_us);  // each block now waits behind the other host's
}

TEST_CASE("the same load gives the same result", "[cxl][determinism]") {
  KvCacheLoad load = kv_load(Bytes(4096), 4, 64);
  load.shared_fraction = 0.3;
  load.write_fraction = 0.2;
  const Json a = run_cxl_tier(scenario_runner(), cxl_topology(pooled(3, 8)), "test", load, 7).to_json();
  const Json b = run_cxl_tier(scenario_runner(), cxl_topology(pooled(3, 8)), "test", load, 7).to_json();
  CHECK(a.dump() == b.dump());
}

TEST_CASE("a device with few request slots makes requests wait: throughput = slots / slot cycle", "[cxl][backpressure]") {
  const TierSetup s = pooled(1, 8);
  Json doc = cxl_topology(s);
  for (Json& d : doc["devices"])
    if (d["model"] == "cxl_type3") d["max_requests"] = 4;
  const TierPoint p = run_cxl_tier(scenario_runner(), doc, "test", kv_load(Bytes(16 * 1024), 4, 16), 1);
  CxlBench b(s);
  const auto& mem = b.device<CxlType3>("cxlmem0");
  // Requests wait at the switch for a slot. Each slot cycles through: the request's
  // flit on the last link and the link's latency, the device (controller, media,
  // controller), then the freed slot's credit back over the link (25 ns).
  const Time hold = flits(1, s) + Time(25'000) + mem.controller_latency * 2 + mem.media_latency +
                    transfer_time(Bytes(64), mem.media_bandwidth) + Time(25'000);
  const double expected = 4 * 64 / hold.ns();
  CHECK(p.moved_GBps == Approx(expected).epsilon(0.03));
}

TEST_CASE("a 64 B store = host fabric + RwD out (two flits a link) + device + NDR back", "[cxl][latency]") {
  TierSetup s = pooled(1, 8);
  s.direct = true;
  CxlBench b(s);
  Time end;
  Time* out = &end;
  SimContext* c = &b.ctx;
  b.fabric.store(b.device<CxlHost>("host0"), b.device<CxlType3>("cxlmem0"), [out, c] { *out = c->now(); });
  b.ctx.run();
  const auto& mem = b.device<CxlType3>("cxlmem0");
  const Time expected = b.device<CxlHost>("host0").fabric_latency + Time(25'000) * 2 + flits(2, s) + flits(1, s) +
                        mem.controller_latency * 2 + mem.media_latency + transfer_time(Bytes(64), mem.media_bandwidth);
  CHECK(end == expected);
}

TEST_CASE("reads and writes together use both directions: past one direction's ceiling", "[cxl][bound]") {
  TierSetup s = pooled(1, 8);
  s.direct = true;
  KvCacheLoad mixed = kv_load(Bytes(4096), 64, 256);
  mixed.write_fraction = 1.0 / 3;
  const TierPoint p = run_cxl_tier(scenario_runner(), cxl_topology(s), "test", mixed, 1);
  LinkConfig c;
  c.lanes = 8;
  // The vendors' 36 GB/s on x8 is reachable only this way; the media caps it.
  CHECK(p.moved_GBps > 1.25 * read_payload_ceiling(c).GBps_value());
  CHECK(p.moved_GBps <= 36.0);
}

TEST_CASE("lines interleaved over two devices double what one device's link carries", "[cxl][pooling]") {
  const KvCacheLoad load = kv_load(Bytes(64 * 1024), 4, 32);
  TierSetup one = pooled(2, 8), two = pooled(2, 8);
  two.cxl_devices = 2;
  const TierPoint a = run_cxl_tier(scenario_runner(), cxl_topology(one), "test", load, 1);
  const TierPoint b = run_cxl_tier(scenario_runner(), cxl_topology(two), "test", load, 1);
  CHECK(b.useful_GBps == Approx(2 * a.useful_GBps).epsilon(0.05));
}
