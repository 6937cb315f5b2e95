// A quantity given with its uncertainty, as a JSON value may carry it (DESIGN.md: every
// parameter may carry one). Four forms, each a distribution of the true value:
//   "14 GB/s +- 5%"             normal, standard deviation 5% of the value
//   "60 us +- 10 us"            normal, standard deviation 10 us ("±" reads as "+-")
//   "92 us .. 150 us"           uniform over the range; the nominal value is its middle
//   "121 us (92 us .. 150 us)"  triangular over the range, its mode at the value
// A normal spread is truncated at 3 standard deviations and at a tenth of the value, so
// that no draw is negative or absurd. The nominal value is what a run without
// --uncertainty uses, so adding a spread never changes such a run. Values are integers in
// the kind's base unit (units.hpp); draws come from quantiles, so a draw is a function of
// one uniform number (sample i's draws then depend only on the seed and i).
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "sim/core/units.hpp"

namespace iowall {

// The quantity kinds of units.hpp; base units: ps, B, b/s, thousandths per s, Hz, mW.
enum class QuantityKind { time, bytes, bandwidth, rate, frequency, power };
const char* quantity_kind_name(QuantityKind k);

enum class Spread { none, normal, uniform, triangular };
const char* spread_name(Spread s);

struct Uncertain {
  QuantityKind kind = QuantityKind::time;
  Spread spread = Spread::none;
  i64 nominal = 0;        // the value a nominal run uses
  double sd = 0;          // normal: the standard deviation
  i64 low = 0, high = 0;  // uniform, triangular: the range; normal: the truncation
  // The value below which a share `p` (0..1) of the distribution lies.
  double quantile(double p) const;
  // quantile(p) as an integer of the base unit (rounded; never below 0).
  i64 value_at(double p) const;
  // How the distribution is written for people, e.g. "normal, sd 0.7 GB/s (truncated at 3 sd)".
  std::string describe() const;
};

// Whether the text has one of the forms above ("+-", "±" or "..").
bool has_uncertainty(std::string_view text);
// Parses a plain quantity or one of the forms above as a quantity of `kind`. A bad spread
// (negative, as wide as the value or wider), a range whose low end is above its high end,
// or a mode outside its range is an error saying so.
ParseResult parse_uncertain(std::string_view text, QuantityKind kind, Uncertain& out);
// The kind in whose units the text's value is written: the first of time, size,
// bandwidth, frequency, rate and power whose parser reads the part before the spread.
std::optional<QuantityKind> quantity_kind_of(std::string_view text);
// A base-unit integer of `kind` as text every parameter of that kind reads back exactly.
std::string quantity_text(QuantityKind kind, i64 value);

// The same value for people: four significant digits in the kind's usual unit ("13.47 GB/s").
std::string quantity_display(QuantityKind kind, i64 value);

// The standard normal distribution's quantile (inverse CDF), for 0 < p < 1.
double normal_quantile(double p);

}  // namespace iowall
