#include "sim/core/uncertain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "sim/core/text.hpp"

namespace iowall {
namespace {

ParseResult parse_kind(std::string_view text, QuantityKind kind, i64& out) {
  // One i64 carries a value of any kind in its type's integer unit: the raw fields, by design.
  switch (kind) {
    case QuantityKind::time: { Time v; const ParseResult r = parse_time(text, v); out = v.ps; return r; }
    case QuantityKind::bytes: { Bytes v; const ParseResult r = parse_bytes(text, v); out = v.n; return r; }
    case QuantityKind::bandwidth: { Bandwidth v; const ParseResult r = parse_bandwidth(text, v); out = v.bps; return r; }
    case QuantityKind::rate: { Rate v; const ParseResult r = parse_rate(text, v); out = v.milli_per_s; return r; }
    case QuantityKind::frequency: { Frequency v; const ParseResult r = parse_frequency(text, v); out = v.hz; return r; }
    case QuantityKind::power: { Power v; const ParseResult r = parse_power(text, v); out = v.mw; return r; }
  }
  return {false, "unknown quantity kind"};
}

// The text with "±" written as "+-".
std::string plain(std::string_view text) {
  std::string s(text);
  for (std::size_t at; (at = s.find("\xC2\xB1")) != std::string::npos;) s.replace(at, 2, "+-");
  return s;
}

// Where the value ends and its spread begins (npos: a plain quantity).
std::size_t spread_start(const std::string& s) {
  return std::min({s.find("+-"), s.find(".."), s.find('(')});
}

double standard_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

}  // namespace

const char* quantity_kind_name(QuantityKind k) {
  switch (k) {
    case QuantityKind::time: return "time";
    case QuantityKind::bytes: return "size";
    case QuantityKind::bandwidth: return "bandwidth";
    case QuantityKind::rate: return "rate";
    case QuantityKind::frequency: return "frequency";
    case QuantityKind::power: return "power";
  }
  return "?";
}

const char* spread_name(Spread s) {
  switch (s) {
    case Spread::none: return "none";
    case Spread::normal: return "normal";
    case Spread::uniform: return "uniform";
    case Spread::triangular: return "triangular";
  }
  return "?";
}

bool has_uncertainty(std::string_view text) {
  return text.find("+-") != std::string_view::npos || text.find("\xC2\xB1") != std::string_view::npos ||
         text.find("..") != std::string_view::npos;
}

std::optional<QuantityKind> quantity_kind_of(std::string_view text) {
  const std::string s = plain(text);
  const std::string_view value = trim(std::string_view(s).substr(0, spread_start(s)));
  for (QuantityKind k : {QuantityKind::time, QuantityKind::bytes, QuantityKind::bandwidth, QuantityKind::frequency,
                         QuantityKind::rate, QuantityKind::power}) {
    i64 v = 0;
    if (parse_kind(value, k, v).ok) return k;
  }
  return std::nullopt;
}

std::string quantity_text(QuantityKind kind, i64 v) {
  switch (kind) {
    case QuantityKind::time: return to_string(Time(v));
    case QuantityKind::bytes: return to_string(Bytes(v));
    case QuantityKind::bandwidth: return to_string(Bandwidth(v));
    case QuantityKind::rate: return to_string(Rate(v));
    // In Hz: a rate parameter reads "Hz" too, so a value written in Hz stays readable by both.
    case QuantityKind::frequency: return fmt::format("{} Hz", v);
    case QuantityKind::power: return to_string(Power(v));
  }
  return "";
}

std::string quantity_display(QuantityKind kind, i64 v) {
  struct Unit {
    double per;  // base units per display unit
    const char* name;
  };
  const auto pick = [&](std::initializer_list<Unit> units) {
    const double x = static_cast<double>(v);
    Unit u = *units.begin();
    for (const Unit& c : units)
      if (std::fabs(x) >= c.per) u = c;
    return fmt::format("{:.4g} {}", x / u.per, u.name);
  };
  switch (kind) {
    case QuantityKind::time: return pick({{1, "ps"}, {1e3, "ns"}, {1e6, "us"}, {1e9, "ms"}, {1e12, "s"}});
    case QuantityKind::bytes:
      return pick({{1, "B"}, {1024.0, "KiB"}, {1024.0 * 1024, "MiB"}, {1024.0 * 1024 * 1024, "GiB"}});
    case QuantityKind::bandwidth: return pick({{8, "B/s"}, {8e3, "KB/s"}, {8e6, "MB/s"}, {8e9, "GB/s"}});
    case QuantityKind::rate: return pick({{1e3, "/s"}, {1e6, "K/s"}, {1e9, "M/s"}});
    case QuantityKind::frequency: return pick({{1, "Hz"}, {1e3, "kHz"}, {1e6, "MHz"}, {1e9, "GHz"}});
    case QuantityKind::power: return pick({{1, "mW"}, {1e3, "W"}, {1e6, "kW"}});
  }
  return "";
}

ParseResult parse_uncertain(std::string_view text, QuantityKind kind, Uncertain& out) {
  out = Uncertain{};
  out.kind = kind;
  const std::string s = plain(text);
  const auto fail = [&](const std::string& why) { return ParseResult{false, fmt::format("\"{}\": {}", text, why)}; };
  const std::size_t cut = spread_start(s);
  const std::string_view value = trim(std::string_view(s).substr(0, cut));
  if (cut == std::string::npos) {
    const ParseResult r = parse_kind(value, kind, out.nominal);
    out.low = out.high = out.nominal;
    return r;
  }
  const std::string_view rest = trim(std::string_view(s).substr(cut));
  const auto name = [&](i64 v) { return quantity_display(kind, v); };
  // "lo .. hi": uniform; the value is the first end.
  if (rest.substr(0, 2) == "..") {
    i64 lo = 0, hi = 0;
    if (ParseResult r = parse_kind(value, kind, lo); !r.ok) return fail("the range's low end " + r.error);
    if (ParseResult r = parse_kind(trim(rest.substr(2)), kind, hi); !r.ok) return fail("the range's high end " + r.error);
    if (lo > hi) return fail(fmt::format("the range's low end ({}) is above its high end ({})", name(lo), name(hi)));
    if (lo == 0 && kind != QuantityKind::time && kind != QuantityKind::bytes)
      return fail(fmt::format("the range's low end must be more than 0 (a {} of 0 is no value)", quantity_kind_name(kind)));
    out.spread = Spread::uniform;
    out.low = lo;
    out.high = hi;
    out.nominal = lo + (hi - lo) / 2;
    return {true, {}};
  }
  if (const ParseResult r = parse_kind(value, kind, out.nominal); !r.ok) return r;
  // "value (lo .. hi)": triangular with its mode at the value.
  if (rest.front() == '(') {
    const std::size_t dots = rest.find("..");
    if (rest.back() != ')' || dots == std::string_view::npos)
      return fail("expected \"value (low .. high)\", e.g. \"121 us (92 us .. 150 us)\"");
    i64 lo = 0, hi = 0;
    if (ParseResult r = parse_kind(trim(rest.substr(1, dots - 1)), kind, lo); !r.ok) return fail("the range's low end " + r.error);
    if (ParseResult r = parse_kind(trim(rest.substr(dots + 2, rest.size() - dots - 3)), kind, hi); !r.ok)
      return fail("the range's high end " + r.error);
    if (lo > hi) return fail(fmt::format("the range's low end ({}) is above its high end ({})", name(lo), name(hi)));
    if (out.nominal < lo || out.nominal > hi)
      return fail(fmt::format("the value {} lies outside its range {} .. {}", name(out.nominal), name(lo), name(hi)));
    out.spread = Spread::triangular;
    out.low = lo;
    out.high = hi;
    return {true, {}};
  }
  // "value +- spread": normal.
  std::string_view spread = trim(rest.substr(2));
  if (spread.empty()) return fail("the spread after \"+-\" is missing (e.g. \"+- 5%\" or \"+- 10 us\")");
  if (spread.front() == '-') return fail("the spread must not be negative");
  if (spread.back() == '%') {
    const std::string number(trim(spread.substr(0, spread.size() - 1)));
    char* end = nullptr;
    const double pct = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(pct))
      return fail(fmt::format("\"{}\" is not a percentage (expected e.g. \"5%\")", spread));
    if (pct < 0) return fail("the spread must not be negative");
    out.sd = static_cast<double>(out.nominal) * pct / 100;
  } else {
    i64 sd = 0;
    if (const ParseResult r = parse_kind(spread, kind, sd); !r.ok)
      return fail(fmt::format("the spread is not a {} in the value's units or a percentage: {}", quantity_kind_name(kind), r.error));
    out.sd = static_cast<double>(sd);
  }
  if (out.sd >= static_cast<double>(out.nominal) && out.sd > 0)
    return fail(fmt::format("the spread is as wide as the value or wider; give a spread below {} or a range \"low .. high\"",
                            name(out.nominal)));
  out.spread = Spread::normal;
  const double v = static_cast<double>(out.nominal);
  out.low = std::llround(std::max(v - 3 * out.sd, v / 10));
  out.high = std::llround(v + 3 * out.sd);
  return {true, {}};
}

double normal_quantile(double p) {
  if (!(p > 0)) return -INFINITY;
  if (!(p < 1)) return INFINITY;
  // Bisection on the CDF: slow but exact to the last bits, and the same on every machine
  // with the same libm; a run draws a few thousand of these.
  double lo = -40, hi = 40;
  for (int i = 0; i < 200 && hi - lo > 1e-13 * std::max(1.0, std::fabs(lo)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (standard_cdf(mid) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double Uncertain::quantile(double p) const {
  p = std::clamp(p, 0.0, 1.0);
  const double n = static_cast<double>(nominal), a = static_cast<double>(low), b = static_cast<double>(high);
  switch (spread) {
    case Spread::none: return n;
    case Spread::uniform: return a + p * (b - a);
    case Spread::triangular: {
      if (b <= a) return n;
      const double fc = (n - a) / (b - a);
      return p < fc ? a + std::sqrt(p * (b - a) * (n - a)) : b - std::sqrt((1 - p) * (b - a) * (b - n));
    }
    case Spread::normal: {
      if (sd <= 0) return n;
      const double fa = standard_cdf((a - n) / sd), fb = standard_cdf((b - n) / sd);
      const double q = fa + p * (fb - fa);
      if (q <= 0) return a;
      if (q >= 1) return b;
      return std::clamp(n + sd * normal_quantile(q), a, b);
    }
  }
  return n;
}

i64 Uncertain::value_at(double p) const {
  const double v = std::round(quantile(p));
  return v <= 0 ? 0 : v >= 9.2e18 ? INT64_MAX : static_cast<i64>(v);
}

std::string Uncertain::describe() const {
  const auto name = [&](i64 v) { return quantity_display(kind, v); };
  switch (spread) {
    case Spread::none: return "none";
    case Spread::uniform: return fmt::format("uniform over {} .. {}", name(low), name(high));
    case Spread::triangular: return fmt::format("triangular over {} .. {}, mode {}", name(low), name(high), name(nominal));
    case Spread::normal:
      return fmt::format("normal, sd {} (truncated to {} .. {})", name(std::llround(sd)), name(low), name(high));
  }
  return "";
}

}  // namespace iowall
