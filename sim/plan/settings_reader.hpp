// Reading the plan's flat settings (flags or a scenario file's "plan" object): the keys
// a settings object may hold, and each value read as its kind (a quantity with its unit,
// a count with a model-size suffix, a percentage, a long duration), every error naming
// the flag or FILE#/plan/key it came from, through the shared field reader.
#pragma once
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/config/json_fields.hpp"
#include "sim/core/units.hpp"

namespace iowall::plan {

// The command-line flag of a setting: storage_bw -> --storage-bw.
std::string flag(const std::string& key);

// The plan's flat settings, read through the shared field reader: each error names the
// flag or FILE#/plan/key its setting came from. The reads below it parse what a flag
// may hold (numbers as text, counts with suffixes, percentages, long times).
struct SettingsReader {
  const nlohmann::json& s;
  JsonFields f;
  SettingsReader(const nlohmann::json& settings, const std::map<std::string, std::string>& origin) : s(settings), f(settings, origin) {}

  bool has(const std::string& k) const { return s.contains(k) && !s[k].is_null(); }
  [[noreturn]] void fail(const std::string& k, const std::string& msg) const { f.fail(k, msg); }
  std::string text(const std::string& k) const { return f.required_text(k); }
  // A quantity with its unit: a string, never a bare number.
  template <typename T>
  T unit(const std::string& k, ParseResult (*parse)(std::string_view, T&)) const {
    return f.quantity<T>(k, parse);
  }
  double bw(const std::string& k) const { return f.positive_bandwidth(k); }
  double bytes(const std::string& k) const { return unit<Bytes>(k, parse_bytes).bytes_value(); }
  double time(const std::string& k) const;     // a duration with its unit, past the picosecond range too
  double number(const std::string& k) const;   // a number, or text that is one
  // A count that may carry a suffix people write model sizes with: 70B, 1.2T, 350M, 7K.
  double count(const std::string& k) const;
  int integer(const std::string& k, int lo, int hi) const;
  bool boolean(const std::string& k) const;    // true or false, or their text
  double percent(const std::string& k) const;  // "5%": a fraction strictly between 0 and 1
};

}  // namespace iowall::plan
