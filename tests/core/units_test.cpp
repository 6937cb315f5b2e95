#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>

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

TEST_CASE("unit types compare with zero and know their largest value", "[units]") {
  CHECK(Time(0).is_zero());
  CHECK(Time(1).is_positive());
  CHECK(Time(-1).is_negative());
  CHECK_FALSE(Time(0).is_positive());
  CHECK_FALSE(Time(0).is_negative());
  CHECK(Bytes(0).is_zero());
  CHECK(Bytes(1).is_positive());
  CHECK(Bytes(-1).is_negative());
  CHECK_FALSE(Bytes(-1).is_positive());
  CHECK(Bandwidth(0).is_zero());
  CHECK(Bandwidth(1).is_positive());
  CHECK_FALSE(Bandwidth(-1).is_positive());
  CHECK(Bytes::max().n == INT64_MAX);
  CHECK(Bandwidth::max().bps == INT64_MAX);
  CHECK(Bytes(8192).is_multiple_of(Bytes(4096)));
  CHECK_FALSE(Bytes(6144).is_multiple_of(Bytes(4096)));
  CHECK(Bytes(0).is_multiple_of(Bytes(4096)));
  // std::min and std::max work on every unit type.
  CHECK(std::min(Bytes(3), Bytes(2)) == Bytes(2));
  CHECK(std::max(Time(3), Time(5)) == Time(5));
  CHECK(std::min({Bytes(7), Bytes(4), Bytes(9)}) == Bytes(4));
  CHECK(std::max(Bandwidth::Gbps(1), Bandwidth::GBps(1)) == Bandwidth::GBps(1));
}

TEST_CASE("times divide into whole periods, truncated toward zero", "[units]") {
  CHECK(us(10) / us(3) == 3);
  CHECK(Time(-7) / Time(2) == -3);
  CHECK(us(10) % us(3) == us(1));
  CHECK(Time(-7) % Time(2) == Time(-1));
  CHECK(Time(1'999).whole_ns() == 1);
  CHECK(Time(-1'500).whole_ns() == -1);
  CHECK(ms(2).whole_ns() == 2'000'000);
  // The old operators are unchanged: a time divided by a count is a time.
  CHECK(us(10) / 4 == Time(2'500'000));
}

TEST_CASE("sizes read out in decimal and binary units", "[units]") {
  using namespace literals;
  CHECK(Bytes(1'500).kB() == 1.5);
  CHECK(Bytes(2'500'000).MB() == 2.5);
  CHECK(Bytes(3'000'000'000).GB() == 3.0);
  CHECK(Bytes(1'536).KiB() == 1.5);
  CHECK((3_MiB).MiB() == 3.0);
  CHECK((5_GiB).GiB() == 5.0);
  CHECK((2_TiB).n == i64{2} << 40);
}

TEST_CASE("bandwidths add, subtract and scale by integers exactly", "[units]") {
  Bandwidth b = Bandwidth::Gbps(100);
  CHECK(b + Bandwidth::Gbps(5) == Bandwidth::Gbps(105));
  CHECK(b - Bandwidth::Gbps(5) == Bandwidth::Gbps(95));
  b += Bandwidth(7);
  CHECK(b.bps == 100'000'000'007);
  b -= Bandwidth(7);
  CHECK(b * 3 == Bandwidth::Gbps(300));
  CHECK(Bandwidth(7) / 2 == Bandwidth(3));  // truncated
  CHECK(Bandwidth::GBps(2).bytes_per_s_value() == 2e9);
}

TEST_CASE("ratios of like quantities are plain doubles", "[units]") {
  CHECK(ratio(us(1), us(4)) == 0.25);
  CHECK(ratio(Bytes(3), Bytes(4)) == 0.75);
  CHECK(ratio(Bandwidth::Gbps(50), Bandwidth::Gbps(200)) == 0.25);
  // The same double arithmetic as dividing the raw fields.
  CHECK(ratio(Bytes(4096), Bytes(4116)) == static_cast<double>(4096) / static_cast<double>(4116));
}

TEST_CASE("ceil_div counts the pieces that cover a size or time, without overflow", "[units]") {
  CHECK(ceil_div(Bytes(0), Bytes(4096)) == 0);
  CHECK(ceil_div(Bytes(1), Bytes(4096)) == 1);
  CHECK(ceil_div(Bytes(4096), Bytes(4096)) == 1);
  CHECK(ceil_div(Bytes(4097), Bytes(4096)) == 2);
  CHECK(ceil_div(us(5), us(2)) == 3);
  CHECK(ceil_div(us(4), us(2)) == 2);
  // The exact ceiling for negative sizes too (-5/4 = -1.25 -> -1).
  CHECK(ceil_div(Bytes(-5), Bytes(4)) == -1);
  // (a + b - 1) / b would wrap here; ceil_div does not.
  CHECK(ceil_div(Bytes::max(), Bytes(2)) == (INT64_MAX / 2) + 1);
  CHECK(ceil_div(Time::max(), Time(INT64_MAX)) == 1);
}

TEST_CASE("real factors truncate toward zero and saturate at the type's range", "[units]") {
  CHECK(whole_bytes(4095.9) == Bytes(4095));
  CHECK(whole_bytes(-2.7) == Bytes(-2));
  CHECK(whole_bytes(1e30) == Bytes::max());
  CHECK(whole_bytes(-1e30).n == INT64_MIN);
  CHECK(whole_bytes(std::numeric_limits<double>::quiet_NaN()) == Bytes(0));
  // 2.5 m of cable at 5 ns/m; the product is taken in double, as a plain cast would.
  CHECK(scale(ns(5), 2.5) == Time(12'500));
  CHECK(scale(Time(3), 0.5) == Time(1));
  CHECK(scale(Time(-3), 0.5) == Time(-1));
  CHECK(scale(Time::max(), 2.0) == Time::max());
  CHECK(scale(Bytes(1000), 0.75) == Bytes(750));
  CHECK(scale(Bytes::max(), 4.0) == Bytes::max());
  CHECK(scale(Bandwidth::Gbps(100), 0.5) == Bandwidth::Gbps(50));
  CHECK(scale(Bandwidth::max(), 1e10) == Bandwidth::max());
  CHECK(scale(Bandwidth(1'000), -1e30).bps == INT64_MIN);
  // The integer scale (num/den) saturates too, instead of wrapping.
  CHECK(scale(Bandwidth::Gbps(100), 236, 256).bps == 92'187'500'000);
  CHECK(scale(Bandwidth::max(), 3, 1) == Bandwidth::max());
  CHECK(scale(Bandwidth(-INT64_MAX), 3, 1).bps == INT64_MIN);
}

TEST_CASE("bit times, throughput and bits per second are exact inverses of transfer_time", "[units]") {
  // 672 bit times (a PAUSE frame) at 100 Gb/s = 6.72 ns; 1 bit at 3 b/s rounds up.
  CHECK(bit_time(672, Bandwidth::Gbps(100)) == Time(6'720));
  CHECK(bit_time(1, Bandwidth(3)) == Time(333'333'333'334));
  CHECK(bit_time(8 * 4096, Bandwidth::GBps(32)) == transfer_time(Bytes(4096), Bandwidth::GBps(32)));
  CHECK(bit_time(100, Bandwidth(0)) == Time(0));
  CHECK(bit_time(0, Bandwidth::Gbps(1)) == Time(0));
  CHECK(bit_time(INT64_MAX, Bandwidth(1)) == Time::max());  // saturates like transfer_time
  // 4096 B in 128 ns = 32 GB/s; rounded down; 0 for a time that is not positive.
  CHECK(throughput(Bytes(4096), ns(128)) == Bandwidth::GBps(32));
  CHECK(throughput(Bytes(1), Time(3)).bps == 2'666'666'666'666);
  CHECK(throughput(Bytes(4096), Time(0)) == Bandwidth(0));
  CHECK(throughput(Bytes(4096), Time(-1)) == Bandwidth(0));
  CHECK(throughput(Bytes::max(), Time(1)) == Bandwidth::max());
  CHECK(gbit_per_s(Bytes(1'250'000'000), sec(1)) == 10.0);
  CHECK(gbit_per_s(Bytes(1'250'000'000), Time(0)) == 0.0);
  // bytes_in rounds down, and saturates instead of wrapping.
  CHECK(bytes_in(us(1), Bandwidth::GBps(1)) == Bytes(1'000));
  CHECK(bytes_in(Time(1), Bandwidth(7)) == Bytes(0));
  CHECK(bytes_in(Time::max(), Bandwidth::max()) == Bytes::max());
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
