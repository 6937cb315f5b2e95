// Physical quantities as integers in strong types: time in picoseconds, sizes in
// bytes, bandwidth in bits per second, rates in milli-operations per second.
// Doubles appear only when a value is reported.
#pragma once
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace iowall {

using i64 = std::int64_t;
using i128 = __int128;

// Simulated time: integer picoseconds (range about +-106 days).
struct Time {
  i64 ps = 0;
  constexpr Time() = default;
  constexpr explicit Time(i64 v) : ps(v) {}
  static constexpr Time zero() { return Time(0); }
  static constexpr Time max() { return Time(INT64_MAX); }
  constexpr auto operator<=>(const Time&) const = default;
  constexpr Time operator+(Time o) const { return Time(ps + o.ps); }
  constexpr Time operator-(Time o) const { return Time(ps - o.ps); }
  constexpr Time& operator+=(Time o) { ps += o.ps; return *this; }
  constexpr Time& operator-=(Time o) { ps -= o.ps; return *this; }
  constexpr Time operator*(i64 k) const { return Time(ps * k); }
  constexpr Time operator/(i64 k) const { return Time(ps / k); }
  double ns() const { return static_cast<double>(ps) / 1e3; }
  double us() const { return static_cast<double>(ps) / 1e6; }
  double ms() const { return static_cast<double>(ps) / 1e9; }
  double seconds() const { return static_cast<double>(ps) / 1e12; }
};

constexpr Time ps(i64 v) { return Time(v); }
constexpr Time ns(i64 v) { return Time(v * 1'000); }
constexpr Time us(i64 v) { return Time(v * 1'000'000); }
constexpr Time ms(i64 v) { return Time(v * 1'000'000'000); }
constexpr Time sec(i64 v) { return Time(v * 1'000'000'000'000); }

// A size in bytes.
struct Bytes {
  i64 n = 0;
  constexpr Bytes() = default;
  constexpr explicit Bytes(i64 v) : n(v) {}
  constexpr auto operator<=>(const Bytes&) const = default;
  constexpr Bytes operator+(Bytes o) const { return Bytes(n + o.n); }
  constexpr Bytes operator-(Bytes o) const { return Bytes(n - o.n); }
  constexpr Bytes& operator+=(Bytes o) { n += o.n; return *this; }
  constexpr Bytes& operator-=(Bytes o) { n -= o.n; return *this; }
  constexpr Bytes operator*(i64 k) const { return Bytes(n * k); }
  constexpr Bytes operator/(i64 k) const { return Bytes(n / k); }
  constexpr i64 operator/(Bytes o) const { return n / o.n; }
  constexpr Bytes operator%(Bytes o) const { return Bytes(n % o.n); }
};

namespace literals {
constexpr Bytes operator""_B(unsigned long long v) { return Bytes(static_cast<i64>(v)); }
constexpr Bytes operator""_KiB(unsigned long long v) { return Bytes(static_cast<i64>(v) << 10); }
constexpr Bytes operator""_MiB(unsigned long long v) { return Bytes(static_cast<i64>(v) << 20); }
constexpr Bytes operator""_GiB(unsigned long long v) { return Bytes(static_cast<i64>(v) << 30); }
constexpr Time operator""_ps(unsigned long long v) { return Time(static_cast<i64>(v)); }
constexpr Time operator""_ns(unsigned long long v) { return ns(static_cast<i64>(v)); }
constexpr Time operator""_us(unsigned long long v) { return us(static_cast<i64>(v)); }
constexpr Time operator""_ms(unsigned long long v) { return ms(static_cast<i64>(v)); }
}  // namespace literals

// Bandwidth in bits per second (exact for every SI and binary prefix in B/s and b/s).
struct Bandwidth {
  i64 bps = 0;
  constexpr Bandwidth() = default;
  constexpr explicit Bandwidth(i64 bits_per_s) : bps(bits_per_s) {}
  static constexpr Bandwidth bytes_per_s(i64 v) { return Bandwidth(v * 8); }
  static constexpr Bandwidth GBps(i64 v) { return Bandwidth(v * 8'000'000'000); }
  static constexpr Bandwidth Gbps(i64 v) { return Bandwidth(v * 1'000'000'000); }
  constexpr auto operator<=>(const Bandwidth&) const = default;
  constexpr bool unlimited() const { return bps <= 0; }
  double GBps_value() const { return static_cast<double>(bps) / 8e9; }
  double Gbps_value() const { return static_cast<double>(bps) / 1e9; }
};

// Operations per second, in thousandths (so "3.3 M/s" and "0.5 /s" are exact).
struct Rate {
  i64 milli_per_s = 0;
  constexpr Rate() = default;
  constexpr explicit Rate(i64 milli) : milli_per_s(milli) {}
  static constexpr Rate per_s(i64 v) { return Rate(v * 1000); }
  constexpr auto operator<=>(const Rate&) const = default;
  double per_s_value() const { return static_cast<double>(milli_per_s) / 1e3; }
};

// Clock frequency in Hz.
struct Frequency {
  i64 hz = 0;
  constexpr Frequency() = default;
  constexpr explicit Frequency(i64 v) : hz(v) {}
  constexpr auto operator<=>(const Frequency&) const = default;
};

// Power in milliwatts.
struct Power {
  i64 mw = 0;
  constexpr Power() = default;
  constexpr explicit Power(i64 v) : mw(v) {}
  constexpr auto operator<=>(const Power&) const = default;
  double watts() const { return static_cast<double>(mw) / 1e3; }
};

// Time to serialize `size` at `bw`, rounded up to the next picosecond (exact integer math).
constexpr Time transfer_time(Bytes size, Bandwidth bw) {
  if (bw.bps <= 0 || size.n <= 0) return Time(0);
  // Most transfers are small enough for 64-bit arithmetic (the same result, without a
  // 128-bit division on the hot path).
  constexpr i64 kHalf = INT64_MAX / 2, kFastBytes = kHalf / (8 * 1'000'000'000'000LL);
  if (size.n <= kFastBytes && bw.bps <= kHalf) return Time((size.n * 8 * 1'000'000'000'000LL + bw.bps - 1) / bw.bps);
  const i128 num = static_cast<i128>(size.n) * 8 * 1'000'000'000'000LL;
  const i128 t = (num + bw.bps - 1) / bw.bps;
  return t > INT64_MAX ? Time::max() : Time(static_cast<i64>(t));  // saturates: never wraps
}
// Time between operations at `r` (rounded up).
constexpr Time interval(Rate r) {
  if (r.milli_per_s <= 0) return Time(0);
  if (r.milli_per_s <= INT64_MAX / 2) return Time((1'000'000'000'000'000LL + r.milli_per_s - 1) / r.milli_per_s);
  const i128 num = static_cast<i128>(1'000'000'000'000'000LL);
  return Time(static_cast<i64>((num + r.milli_per_s - 1) / r.milli_per_s));
}
// Duration of `count` clock cycles.
constexpr Time cycles(i64 count, Frequency f) {
  if (f.hz <= 0) return Time(0);
  const i128 num = static_cast<i128>(count) * 1'000'000'000'000LL;
  const i128 t = (num + f.hz - 1) / f.hz;
  return t > INT64_MAX ? Time::max() : Time(static_cast<i64>(t));
}
// Bytes moved in `t` at `bw`, rounded down.
constexpr Bytes bytes_in(Time t, Bandwidth bw) {
  const i128 num = static_cast<i128>(t.ps) * bw.bps;
  return Bytes(static_cast<i64>(num / (8 * static_cast<i128>(1'000'000'000'000LL))));
}
// Bandwidth scaled by num/den (encoding efficiency, lane count), rounded down.
constexpr Bandwidth scale(Bandwidth bw, i64 num, i64 den) {
  return Bandwidth(static_cast<i64>(static_cast<i128>(bw.bps) * num / den));
}
// Achieved rate of moving `size` in `t`, for reports.
double gb_per_s(Bytes size, Time t);

// Parsing of unit strings: "150 ns", "1.5 us", "32 GB/s", "256 Gb/s", "4 KiB", "1 MB".
// Each returns false and fills `expected` with an example of the right form on failure.
struct ParseResult {
  bool ok = false;
  std::string error;  // what was wrong, e.g. `"60 parsecs" is not a time (expected e.g. "60 us")`
};
ParseResult parse_time(std::string_view text, Time& out);
ParseResult parse_bytes(std::string_view text, Bytes& out);
ParseResult parse_bandwidth(std::string_view text, Bandwidth& out);
ParseResult parse_rate(std::string_view text, Rate& out);
ParseResult parse_frequency(std::string_view text, Frequency& out);
ParseResult parse_power(std::string_view text, Power& out);

// Canonical text forms (round-trip through the parsers).
std::string to_string(Time t);
std::string to_string(Bytes b);
std::string to_string(Bandwidth bw);
std::string to_string(Rate r);
std::string to_string(Frequency f);
std::string to_string(Power p);

}  // namespace iowall
