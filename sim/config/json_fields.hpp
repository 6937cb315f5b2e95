// Reading the fields of one JSON object into typed values, each error an InputError that
// names where the field came from: the file and the field's JSON pointer (a result file,
// a cluster description), or, for flat settings gathered from flags and a file (a plan
// request), the flag or FILE#pointer each key was given at. Two families of reads:
// result files (absent reads as the fallback; a number that is null, how JSON writes NaN,
// reads as NaN; terse messages), and input people write (required keys, unknown keys,
// values with their units; the message quotes the value).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/units.hpp"

namespace iowall {

class JsonFields {
public:
  // Throws InputError(file, at) `what` unless `obj` is an object.
  JsonFields(const nlohmann::json& obj, std::string file, std::string at, const char* what = "not an object");
  // Flat settings whose keys come from several places: `origin` maps a key to "--flag" or
  // "FILE#/pointer" (a key without one is named "--key"). `settings` must be an object.
  JsonFields(const nlohmann::json& settings, const std::map<std::string, std::string>& origin);

  bool has(const std::string& key) const;
  // The pointer of the field `key` (escaped as RFC 6901 asks: "~" as ~0, "/" as ~1).
  std::string pointer(const std::string& key) const;
  std::string pointer(const std::string& key, std::size_t index) const;
  const std::string& file() const { return file_; }
  // The value at `key` (which must exist).
  const nlohmann::json& at(const std::string& key) const { return obj_.at(key); }
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  [[noreturn]] void fail(const std::string& key, std::size_t index, const std::string& message) const;

  // Result files.
  double number(const char* key, double fallback = 0) const;
  std::optional<double> optional_number(const char* key) const;
  std::int64_t integer(const char* key, std::int64_t fallback = 0) const;
  std::uint64_t unsigned_integer(const char* key, std::uint64_t fallback = 0) const;
  std::optional<std::uint64_t> optional_unsigned(const char* key) const;
  std::string text(const char* key, const std::string& fallback = {}) const;
  std::optional<std::string> optional_text(const char* key) const;
  // An array of strings (absent: empty).
  std::vector<std::string> texts(const char* key) const;

  // Input people write. A key outside `known`: `unknown key "k" (expected a, b, c)`.
  void only(const std::set<std::string>& known) const;
  // The value at `key`; absent: `"key" is required`, at this object.
  const nlohmann::json& required(const std::string& key) const;
  std::string required_text(const std::string& key) const;                // "... is not text"
  int integer_in(const std::string& key, int lo, int hi) const;           // an integer in [lo, hi]
  double number_at_least(const std::string& key, double lo) const;        // a number >= lo
  // A quantity with its unit, a string (never a bare number), parsed by `parse`; the
  // bare-number message shows `example` when one is given.
  template <typename T>
  T quantity(const std::string& key, ParseResult (*parse)(std::string_view, T&), const char* example = nullptr) const {
    const std::string t = unit_text(key, example);
    T v;
    const ParseResult r = parse(t, v);
    if (!r.ok) fail(key, r.error);
    return v;
  }
  // A positive bandwidth, in bytes per second (the planner's double arithmetic).
  double positive_bandwidth(const std::string& key, const char* example = nullptr) const;

private:
  std::string unit_text(const std::string& key, const char* example) const;

  const nlohmann::json& obj_;
  std::string file_;
  std::string at_;
  const std::map<std::string, std::string>* origin_ = nullptr;
};

}  // namespace iowall
