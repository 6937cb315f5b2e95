#include "sim/core/units.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <fmt/format.h>

#include "sim/core/text.hpp"

namespace iowall {
namespace {

struct UnitFactor {
  std::string_view name;
  i128 factor;  // multiplier from one unit to the base integer unit
};

constexpr i128 k10(int e) {
  i128 v = 1;
  for (int i = 0; i < e; ++i) v *= 10;
  return v;
}

// A decimal number split into an integer mantissa and a power of ten, so that
// "1.5" becomes 15 x 10^-1 and nothing is lost to binary floating point.
struct Decimal {
  i128 mantissa = 0;
  int exp10 = 0;
  bool negative = false;
};

bool parse_decimal(std::string_view& s, Decimal& d) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) d.negative = s[i++] == '-';
  bool digits = false, point = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (d.mantissa > k10(30)) return false;  // absurd precision or size
      d.mantissa = d.mantissa * 10 + (c - '0');
      if (point) --d.exp10;
      digits = true;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!digits) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E') && i + 1 < s.size() &&
      (std::isdigit(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '-' || s[i + 1] == '+')) {
    size_t j = i + 1;
    bool neg = false;
    if (s[j] == '-' || s[j] == '+') neg = s[j++] == '-';
    int e = 0;
    bool edigits = false;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
      e = e * 10 + (s[j++] - '0');
      edigits = true;
      if (e > 40) return false;
    }
    if (!edigits) return false;
    d.exp10 += neg ? -e : e;
    i = j;
  }
  s.remove_prefix(i);
  return true;
}

template <size_t N>
ParseResult parse_quantity(std::string_view text, const std::array<UnitFactor, N>& units,
                           std::string_view kind, std::string_view example, bool allow_negative,
                           i64& out) {
  auto fail = [&](std::string_view why) {
    return ParseResult{false, fmt::format("\"{}\" is not {} (expected e.g. \"{}\"){}", text, kind,
                                          example, why)};
  };
  std::string_view s = trim(text);
  Decimal d;
  if (!parse_decimal(s, d)) return fail("");
  s = trim(s);
  if (s.empty()) return fail(": the unit is missing");
  const UnitFactor* unit = nullptr;
  for (const auto& u : units)
    if (u.name == s) unit = &u;
  if (!unit) return fail("");
  if (d.negative && !allow_negative) return fail(": it must not be negative");
  // value = mantissa * 10^exp10 * factor, rounded to the nearest integer. Digits past
  // the 21st move a 64-bit result by less than one base unit, so they are dropped
  // rather than let the 128-bit product overflow.
  const i128 limit = (static_cast<i128>(1) << 126) / unit->factor;
  while (d.mantissa > limit) {
    d.mantissa /= 10;
    ++d.exp10;
  }
  i128 num = d.mantissa * unit->factor;
  if (d.exp10 < -38) {
    num = 0;  // below half a base unit: 10^38 exceeds any product above
  } else if (d.exp10 >= 0) {
    for (int e = 0; e < d.exp10; ++e) {
      if (num > static_cast<i128>(INT64_MAX)) return fail(": out of range");
      num *= 10;
    }
  } else {
    const i128 den = k10(-d.exp10);
    num = (num + den / 2) / den;
  }
  if (num > static_cast<i128>(INT64_MAX)) return fail(": out of range");
  out = static_cast<i64>(d.negative ? -num : num);
  return {true, {}};
}

constexpr std::array<UnitFactor, 10> kTimeUnits{{{"ps", 1},
                                                 {"ns", 1000},
                                                 {"us", k10(6)},
                                                 {"\xC2\xB5s", k10(6)},
                                                 {"ms", k10(9)},
                                                 {"s", k10(12)},
                                                 {"min", 60 * k10(12)},
                                                 {"h", 3600 * k10(12)},
                                                 {"d", 86400 * k10(12)},
                                                 {"sec", k10(12)}}};

constexpr std::array<UnitFactor, 15> kSizeUnits{{{"B", 1},
                                                 {"kB", 1000},
                                                 {"KB", 1000},
                                                 {"MB", k10(6)},
                                                 {"GB", k10(9)},
                                                 {"TB", k10(12)},
                                                 {"PB", k10(15)},
                                                 {"KiB", i128(1) << 10},
                                                 {"MiB", i128(1) << 20},
                                                 {"GiB", i128(1) << 30},
                                                 {"TiB", i128(1) << 40},
                                                 {"PiB", i128(1) << 50},
                                                 {"bytes", 1},
                                                 {"byte", 1},
                                                 {"EB", k10(18)}}};

// Base unit: bits per second. Byte units are x8; "GB/s" is SI, "GiB/s" binary.
constexpr std::array<UnitFactor, 21> kBandwidthUnits{{{"B/s", 8},
                                                      {"kB/s", 8 * k10(3)},
                                                      {"KB/s", 8 * k10(3)},
                                                      {"MB/s", 8 * k10(6)},
                                                      {"GB/s", 8 * k10(9)},
                                                      {"TB/s", 8 * k10(12)},
                                                      {"KiB/s", 8 * (i128(1) << 10)},
                                                      {"MiB/s", 8 * (i128(1) << 20)},
                                                      {"GiB/s", 8 * (i128(1) << 30)},
                                                      {"TiB/s", 8 * (i128(1) << 40)},
                                                      {"b/s", 1},
                                                      {"kb/s", k10(3)},
                                                      {"Kb/s", k10(3)},
                                                      {"Mb/s", k10(6)},
                                                      {"Gb/s", k10(9)},
                                                      {"Tb/s", k10(12)},
                                                      {"bps", 1},
                                                      {"Kbps", k10(3)},
                                                      {"Mbps", k10(6)},
                                                      {"Gbps", k10(9)},
                                                      {"Tbps", k10(12)}}};

// Base unit: thousandths of an operation per second.
constexpr std::array<UnitFactor, 10> kRateUnits{{{"/s", 1000},
                                                 {"K/s", k10(6)},
                                                 {"k/s", k10(6)},
                                                 {"M/s", k10(9)},
                                                 {"G/s", k10(12)},
                                                 {"IOPS", 1000},
                                                 {"KIOPS", k10(6)},
                                                 {"kIOPS", k10(6)},
                                                 {"MIOPS", k10(9)},
                                                 {"Hz", 1000}}};

constexpr std::array<UnitFactor, 4> kFrequencyUnits{
    {{"Hz", 1}, {"kHz", k10(3)}, {"MHz", k10(6)}, {"GHz", k10(9)}}};

constexpr std::array<UnitFactor, 4> kPowerUnits{
    {{"mW", 1}, {"W", k10(3)}, {"kW", k10(6)}, {"MW", k10(9)}}};

// Prints `value / divisor` with up to 6 significant decimals and no trailing zeros.
std::string decimal_text(i64 value, i64 divisor) {
  const bool neg = value < 0;
  const i128 v = neg ? -static_cast<i128>(value) : value;
  const i128 whole = v / divisor;
  i128 frac = v % divisor;
  std::string s = fmt::format("{}{}", neg ? "-" : "", static_cast<i64>(whole));
  if (frac != 0) {
    std::string digits;
    i64 d = divisor;
    while (d > 1 && frac != 0) {
      d /= 10;
      digits += static_cast<char>('0' + static_cast<int>(frac / d));
      frac %= d;
    }
    s += "." + digits;
  }
  return s;
}

// Picks the largest unit that divides the value exactly, so the text parses back exactly.
template <size_t N>
std::string exact_text(i64 value, const std::array<std::pair<std::string_view, i64>, N>& units) {
  // Of the units that divide the value exactly, the one with the shortest number.
  const std::pair<std::string_view, i64>* best = nullptr;
  for (const auto& u : units)
    if (value != 0 && value % u.second == 0 && (!best || std::abs(value / u.second) < std::abs(value / best->second)))
      best = &u;
  if (best) return fmt::format("{} {}", value / best->second, best->first);
  // Fall back to the smallest unit that keeps the value readable.
  const auto& [name, factor] = units[0];
  for (const auto& u : units)
    if (std::abs(value) >= u.second) return fmt::format("{} {}", decimal_text(value, u.second), u.first);
  return fmt::format("{} {}", decimal_text(value, factor), name);
}

}  // namespace

Time nearest_ps(double ps) { return Time(static_cast<i64>(std::llround(ps))); }

double gb_per_s(Bytes size, Time t) {
  if (t.ps <= 0) return 0.0;
  return static_cast<double>(size.n) / t.seconds() / 1e9;
}

ParseResult parse_time(std::string_view text, Time& out) {
  return parse_quantity(text, kTimeUnits, "a time", "60 us", false, out.ps);
}
ParseResult parse_bytes(std::string_view text, Bytes& out) {
  return parse_quantity(text, kSizeUnits, "a size", "4 KiB", false, out.n);
}
ParseResult parse_bandwidth(std::string_view text, Bandwidth& out) {
  return parse_quantity(text, kBandwidthUnits, "a bandwidth", "32 GB/s", false, out.bps);
}
ParseResult parse_rate(std::string_view text, Rate& out) {
  return parse_quantity(text, kRateUnits, "a rate", "3.3 M/s", false, out.milli_per_s);
}
ParseResult parse_frequency(std::string_view text, Frequency& out) {
  return parse_quantity(text, kFrequencyUnits, "a frequency", "2.5 GHz", false, out.hz);
}
ParseResult parse_power(std::string_view text, Power& out) {
  return parse_quantity(text, kPowerUnits, "a power", "700 W", false, out.mw);
}

std::string to_string(Time t) {
  static constexpr std::array<std::pair<std::string_view, i64>, 6> units{
      {{"s", 1'000'000'000'000}, {"ms", 1'000'000'000}, {"us", 1'000'000}, {"ns", 1'000}, {"ps", 1}, {"ps", 1}}};
  if (t.ps == 0) return "0 ns";
  return exact_text(t.ps, units);
}
std::string to_string(Bytes b) {
  static constexpr std::array<std::pair<std::string_view, i64>, 9> units{
      {{"TiB", i64(1) << 40}, {"GiB", i64(1) << 30}, {"MiB", i64(1) << 20}, {"KiB", i64(1) << 10},
       {"TB", 1'000'000'000'000}, {"GB", 1'000'000'000}, {"MB", 1'000'000}, {"kB", 1000}, {"B", 1}}};
  if (b.n == 0) return "0 B";
  return exact_text(b.n, units);
}
std::string to_string(Bandwidth bw) {
  if (bw.bps % 8 == 0) {
    const i64 bytes = bw.bps / 8;
    static constexpr std::array<std::pair<std::string_view, i64>, 5> units{
        {{"TB/s", 1'000'000'000'000}, {"GB/s", 1'000'000'000}, {"MB/s", 1'000'000}, {"kB/s", 1000}, {"B/s", 1}}};
    if (bytes == 0) return "0 B/s";
    return exact_text(bytes, units);
  }
  static constexpr std::array<std::pair<std::string_view, i64>, 5> units{
      {{"Tb/s", 1'000'000'000'000}, {"Gb/s", 1'000'000'000}, {"Mb/s", 1'000'000}, {"kb/s", 1000}, {"b/s", 1}}};
  return exact_text(bw.bps, units);
}
std::string to_string(Rate r) {
  static constexpr std::array<std::pair<std::string_view, i64>, 4> units{
      {{"G/s", 1'000'000'000'000}, {"M/s", 1'000'000'000}, {"K/s", 1'000'000}, {"/s", 1000}}};
  if (r.milli_per_s == 0) return "0 /s";
  if (r.milli_per_s % 1000 != 0) return fmt::format("{} /s", decimal_text(r.milli_per_s, 1000));
  return exact_text(r.milli_per_s, units);
}
std::string to_string(Frequency f) {
  static constexpr std::array<std::pair<std::string_view, i64>, 4> units{
      {{"GHz", 1'000'000'000}, {"MHz", 1'000'000}, {"kHz", 1000}, {"Hz", 1}}};
  if (f.hz == 0) return "0 Hz";
  return exact_text(f.hz, units);
}
std::string to_string(Power p) {
  static constexpr std::array<std::pair<std::string_view, i64>, 4> units{
      {{"MW", 1'000'000'000}, {"kW", 1'000'000}, {"W", 1000}, {"mW", 1}}};
  if (p.mw == 0) return "0 W";
  return exact_text(p.mw, units);
}

}  // namespace iowall
