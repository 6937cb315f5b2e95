#include <catch2/catch.hpp>

#include "sim/core/units.hpp"

using namespace iowall;

TEST_CASE("time strings parse exactly with SI prefixes", "[units]") {
  Time t;
  REQUIRE(parse_time("150 ns", t).ok);
  CHECK(t.ps == 150'000);
  REQUIRE(parse_time("1.5 us", t).ok);
  CHECK(t.ps == 1'500'000);
  REQUIRE(parse_time("2 s", t).ok);
  CHECK(t.ps == 2'000'000'000'000);
  REQUIRE(parse_time("0.25ms", t).ok);
  CHECK(t.ps == 250'000'000);
  REQUIRE(parse_time("1e3 ns", t).ok);
  CHECK(t.ps == 1'000'000);
}

TEST_CASE("sizes distinguish SI and binary prefixes", "[units]") {
  Bytes b;
  REQUIRE(parse_bytes("4 KiB", b).ok);
  CHECK(b.n == 4096);
  REQUIRE(parse_bytes("1 MB", b).ok);
  CHECK(b.n == 1'000'000);
  REQUIRE(parse_bytes("1 MiB", b).ok);
  CHECK(b.n == 1'048'576);
  REQUIRE(parse_bytes("2.3 TB", b).ok);
  CHECK(b.n == 2'300'000'000'000);
}

TEST_CASE("bandwidths in bytes and bits per second", "[units]") {
  Bandwidth bw;
  REQUIRE(parse_bandwidth("32 GB/s", bw).ok);
  CHECK(bw.bps == 256'000'000'000);
  REQUIRE(parse_bandwidth("256 Gb/s", bw).ok);
  CHECK(bw.bps == 256'000'000'000);
  REQUIRE(parse_bandwidth("1 GiB/s", bw).ok);
  CHECK(bw.bps == 8LL * 1024 * 1024 * 1024);
  Rate r;
  REQUIRE(parse_rate("3.3 M/s", r).ok);
  CHECK(r.milli_per_s == 3'300'000'000);
}

TEST_CASE("bad unit strings are refused with an example of the right form", "[units]") {
  Time t;
  auto r = parse_time("60 parsecs", t);
  CHECK_FALSE(r.ok);
  CHECK(r.error == "\"60 parsecs\" is not a time (expected e.g. \"60 us\")");
  CHECK_FALSE(parse_time("60", t).ok);
  CHECK_FALSE(parse_time("us", t).ok);
  Bytes b;
  CHECK_FALSE(parse_bytes("-4 KiB", b).ok);
  CHECK_FALSE(parse_bytes("4 KiB/s", b).ok);
  CHECK_FALSE(parse_bytes("99999999999999999999999 PB", b).ok);
}

TEST_CASE("serialization delay is exact integer arithmetic", "[units]") {
  // 4096 B at 32 GB/s = 128 ns exactly.
  CHECK(transfer_time(Bytes(4096), Bandwidth::GBps(32)).ps == 128'000);
  // 1 B at 3 b/s = 8/3 s: rounded up to the next picosecond.
  CHECK(transfer_time(Bytes(1), Bandwidth(3)).ps == 2'666'666'666'667);
  // Large sizes do not overflow: 1 PB at 1 GB/s = 1e6 s.
  CHECK(transfer_time(Bytes(1'000'000'000'000'000), Bandwidth::GBps(1)).ps == 1'000'000LL * 1'000'000'000'000);
  CHECK(interval(Rate::per_s(1'000'000)).ps == 1'000'000);
}

TEST_CASE("canonical text parses back to the same value", "[units]") {
  for (const char* s : {"150 ns", "1.5 us", "4 KiB", "1 MB", "32 GB/s", "256 Gb/s", "3.3 M/s", "7.68 TB"}) {
    Time t;
    Bytes b;
    Bandwidth bw;
    Rate r;
    if (parse_time(s, t).ok) {
      Time back;
      REQUIRE(parse_time(to_string(t), back).ok);
      CHECK(back == t);
    } else if (parse_bytes(s, b).ok) {
      Bytes back;
      REQUIRE(parse_bytes(to_string(b), back).ok);
      CHECK(back == b);
    } else if (parse_bandwidth(s, bw).ok) {
      Bandwidth back;
      REQUIRE(parse_bandwidth(to_string(bw), back).ok);
      CHECK(back == bw);
    } else {
      REQUIRE(parse_rate(s, r).ok);
      Rate back;
      REQUIRE(parse_rate(to_string(r), back).ok);
      CHECK(back == r);
    }
  }
}
