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
  double ps_value() const { return static_cast<double>(ps); }  // for arithmetic in double ps
  double ns() const { return static_cast<double>(ps) / 1e3; }
  double us() const { return static_cast<double>(ps) / 1e6; }
  double ms() const { return static_cast<double>(ps) / 1e9; }
  double seconds() const { return static_cast<double>(ps) / 1e12; }
  constexpr bool is_zero() const { return ps == 0; }
  constexpr bool is_positive() const { return ps > 0; }
  constexpr bool is_negative() const { return ps < 0; }
  // Whole periods of `o` in this time, truncated toward zero (as for Bytes); the
  // double ratio is ratio(a, b). Plain 64-bit arithmetic: `o` must not be zero.
  constexpr i64 operator/(Time o) const { return ps / o.ps; }
  constexpr Time operator%(Time o) const { return Time(ps % o.ps); }
  // Whole nanoseconds, truncated toward zero: for counters kept in integer ns.
  constexpr i64 whole_ns() const { return ps / 1'000; }
  // The count of picoseconds: for serialization, counters kept in ps and plain-integer
  // interfaces (the TLP simulator, trace files).
  constexpr i64 whole_ps() const { return ps; }
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
  static constexpr Bytes max() { return Bytes(INT64_MAX); }
  constexpr bool is_zero() const { return n == 0; }
  constexpr bool is_positive() const { return n > 0; }
  constexpr bool is_negative() const { return n < 0; }
  constexpr bool is_multiple_of(Bytes unit) const { return n % unit.n == 0; }  // unit must not be zero
  // The count of bytes: for serialization (JSON, stats counters) and plain byte-count
  // interfaces (wire formats, the TLP simulator).
  constexpr i64 count() const { return n; }
  double bytes_value() const { return static_cast<double>(n); }  // for arithmetic in double bytes
  double kB() const { return static_cast<double>(n) / 1e3; }
  double MB() const { return static_cast<double>(n) / 1e6; }
  double GB() const { return static_cast<double>(n) / 1e9; }
  double KiB() const { return static_cast<double>(n) / 1024.0; }
  double MiB() const { return static_cast<double>(n) / 1048576.0; }
  double GiB() const { return static_cast<double>(n) / 1073741824.0; }
};

namespace literals {
constexpr Bytes operator""_B(unsigned long long v) { return Bytes(static_cast<i64>(v)); }
constexpr Bytes operator""_KiB(unsigned long long v) { return Bytes(static_cast<i64>(v) << 10); }
constexpr Bytes operator""_MiB(unsigned long long v) { return Bytes(static_cast<i64>(v) << 20); }
constexpr Bytes operator""_GiB(unsigned long long v) { return Bytes(static_cast<i64>(v) << 30); }
constexpr Bytes operator""_TiB(unsigned long long v) { return Bytes(static_cast<i64>(v) << 40); }
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
  double bytes_per_s_value() const { return static_cast<double>(bps) / 8; }
  constexpr i64 whole_Mbps() const { return bps / 1'000'000; }  // truncated toward zero, for counters
  static constexpr Bandwidth max() { return Bandwidth(INT64_MAX); }
  constexpr bool is_zero() const { return bps == 0; }
  constexpr bool is_positive() const { return bps > 0; }
  // Sums, differences and integer multiples (rate-control steps): plain 64-bit
  // arithmetic as for Time and Bytes, exact while within +-9.2e18 b/s.
  constexpr Bandwidth operator+(Bandwidth o) const { return Bandwidth(bps + o.bps); }
  constexpr Bandwidth operator-(Bandwidth o) const { return Bandwidth(bps - o.bps); }
  constexpr Bandwidth& operator+=(Bandwidth o) { bps += o.bps; return *this; }
  constexpr Bandwidth& operator-=(Bandwidth o) { bps -= o.bps; return *this; }
  constexpr Bandwidth operator*(i64 k) const { return Bandwidth(bps * k); }
  constexpr Bandwidth operator/(i64 k) const { return Bandwidth(bps / k); }
};

// Operations per second, in thousandths (so "3.3 M/s" and "0.5 /s" are exact).
struct Rate {
  i64 milli_per_s = 0;
  constexpr Rate() = default;
  constexpr explicit Rate(i64 milli) : milli_per_s(milli) {}
  static constexpr Rate per_s(i64 v) { return Rate(v * 1000); }
  constexpr auto operator<=>(const Rate&) const = default;
  double per_s_value() const { return static_cast<double>(milli_per_s) / 1e3; }
  constexpr bool is_zero() const { return milli_per_s == 0; }
};

// Clock frequency in Hz.
struct Frequency {
  i64 hz = 0;
  constexpr Frequency() = default;
  constexpr explicit Frequency(i64 v) : hz(v) {}
  constexpr auto operator<=>(const Frequency&) const = default;
  constexpr bool is_zero() const { return hz == 0; }
};

// Power in milliwatts.
struct Power {
  i64 mw = 0;
  constexpr Power() = default;
  constexpr explicit Power(i64 v) : mw(v) {}
  constexpr auto operator<=>(const Power&) const = default;
  double watts() const { return static_cast<double>(mw) / 1e3; }
  constexpr bool is_positive() const { return mw > 0; }
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
  const i128 b = num / (8 * static_cast<i128>(1'000'000'000'000LL));
  return b > INT64_MAX ? Bytes::max() : Bytes(static_cast<i64>(b));  // saturates (t, bw >= 0)
}
// Bandwidth scaled by num/den (encoding efficiency, lane count), rounded toward zero;
// saturates at the range of Bandwidth.
constexpr Bandwidth scale(Bandwidth bw, i64 num, i64 den) {
  const i128 v = static_cast<i128>(bw.bps) * num / den;
  return Bandwidth(v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : static_cast<i64>(v));
}

// Time scaled by num/den (a share of a cost), rounded toward zero; saturates.
constexpr Time scale(Time t, i64 num, i64 den) {
  const i128 v = static_cast<i128>(t.ps) * num / den;
  return Time(v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : static_cast<i64>(v));
}

// Helpers that keep model code off the raw fields. std::min and std::max work on every
// unit type (they are totally ordered).

// a / b as a double (shares, efficiencies): for reports and probabilities only.
constexpr double ratio(Time a, Time b) { return static_cast<double>(a.ps) / static_cast<double>(b.ps); }
constexpr double ratio(Bytes a, Bytes b) { return static_cast<double>(a.n) / static_cast<double>(b.n); }
constexpr double ratio(Bandwidth a, Bandwidth b) { return static_cast<double>(a.bps) / static_cast<double>(b.bps); }

// Pieces of at most `b` that cover `a` (pages, RPCs, stripes): the exact ceiling of
// a / b for b > 0, for any a, without the overflow of (a + b - 1) / b.
constexpr i64 ceil_div(Bytes a, Bytes b) { return a.n / b.n + (a.n % b.n > 0 ? 1 : 0); }
constexpr i64 ceil_div(Time a, Time b) { return a.ps / b.ps + (a.ps % b.ps > 0 ? 1 : 0); }
// `a` rounded down / up to a multiple of `unit` (blocks, pages, poll periods) for a >= 0
// and unit > 0; round_up is (a + unit - 1) / unit * unit, the form the models used.
constexpr Bytes round_down(Bytes a, Bytes unit) { return Bytes(a.n / unit.n * unit.n); }
constexpr Bytes round_up(Bytes a, Bytes unit) { return Bytes((a.n + unit.n - 1) / unit.n * unit.n); }
constexpr Time round_up(Time a, Time unit) { return Time((a.ps + unit.ps - 1) / unit.ps * unit.ps); }
// The integral of `value` held for `dt`, in value x ps, in 128 bits (time-weighted means).
constexpr i128 integral(i64 value, Time dt) { return static_cast<i128>(value) * dt.ps; }

namespace detail {
// A double count as i64, truncated toward zero and saturated to the i64 range (NaN: 0),
// where a plain cast would be undefined.
constexpr i64 saturating_i64(double v) {
  if (!(v == v)) return 0;
  if (v >= 9.2233720368547758e18) return INT64_MAX;
  if (v <= -9.2233720368547758e18) return INT64_MIN;
  return static_cast<i64>(v);
}
constexpr i64 saturating_i64(i128 v) {
  return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : static_cast<i64>(v);
}
}  // namespace detail

// `b` bytes given as a double (a window, a fraction of a size), truncated toward zero;
// saturates at the range of Bytes.
constexpr Bytes whole_bytes(double b) { return Bytes(detail::saturating_i64(b)); }
// A quantity times a real factor (a cable length, a rate cut, a random draw), the
// product taken in double and truncated toward zero; saturates at the type's range.
constexpr Time scale(Time t, double k) { return Time(detail::saturating_i64(static_cast<double>(t.ps) * k)); }
constexpr Bytes scale(Bytes b, double k) { return whole_bytes(static_cast<double>(b.n) * k); }
constexpr Bandwidth scale(Bandwidth bw, double k) {
  return Bandwidth(detail::saturating_i64(static_cast<double>(bw.bps) * k));
}
// A time given in picoseconds as a double (a time-weighted integral), rounded to the
// nearest picosecond (std::llround: halves away from zero).
Time nearest_ps(double ps);
// Time of `bits` bit times at `bw` (control frames and delays given in bit times),
// rounded up like transfer_time; 0 at a zero bandwidth; saturates at Time::max().
constexpr Time bit_time(i64 bits, Bandwidth bw) {
  if (bw.bps <= 0 || bits <= 0) return Time(0);
  const i128 t = (static_cast<i128>(bits) * 1'000'000'000'000LL + bw.bps - 1) / bw.bps;
  return t > INT64_MAX ? Time::max() : Time(static_cast<i64>(t));
}
// The bandwidth that moves `size` in `t`, rounded down (the inverse of transfer_time);
// 0 when t is not positive; saturates at Bandwidth::max().
constexpr Bandwidth throughput(Bytes size, Time t) {
  if (t.ps <= 0) return Bandwidth(0);
  return Bandwidth(detail::saturating_i64(static_cast<i128>(size.n) * 8 * 1'000'000'000'000LL / t.ps));
}
// Achieved rate of moving `size` in `t` in Gb/s (bits), for reports; 0 when t is not positive.
inline double gbit_per_s(Bytes size, Time t) {
  return t.ps > 0 ? static_cast<double>(size.n) * 8 / t.seconds() / 1e9 : 0;
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
