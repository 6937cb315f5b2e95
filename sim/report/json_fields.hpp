// Reading the fields of a result file into typed values: each read names the file and
// the field's JSON pointer in the InputError it throws when the field has the wrong type,
// so `iowall report` and `sweep --merge` refuse a bad file with one line. A field that is
// absent reads as the fallback; a number that is null (how JSON writes NaN) reads as NaN.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace iowall {

class JsonFields {
public:
  // Throws InputError(file, at) "not an object" unless `obj` is an object.
  JsonFields(const nlohmann::json& obj, const std::string& file, std::string at,
             const char* what = "not an object");
  bool has(const char* key) const;
  // The pointer of the field `key` (escaped as RFC 6901 asks: "~" as ~0, "/" as ~1).
  std::string pointer(const std::string& key) const;
  std::string pointer(const std::string& key, std::size_t index) const;
  const std::string& file() const { return file_; }
  // The value at `key` (which must exist).
  const nlohmann::json& at(const char* key) const { return obj_.at(key); }

  double number(const char* key, double fallback = 0) const;
  std::optional<double> optional_number(const char* key) const;
  std::int64_t integer(const char* key, std::int64_t fallback = 0) const;
  std::uint64_t unsigned_integer(const char* key, std::uint64_t fallback = 0) const;
  std::optional<std::uint64_t> optional_unsigned(const char* key) const;
  std::string text(const char* key, const std::string& fallback = {}) const;
  std::optional<std::string> optional_text(const char* key) const;
  // An array of strings (absent: empty).
  std::vector<std::string> texts(const char* key) const;
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  [[noreturn]] void fail(const std::string& key, std::size_t index, const std::string& message) const;

private:
  const nlohmann::json& obj_;
  const std::string& file_;
  std::string at_;
};

// A double as the result JSON writes it (shortest round-trip form; NaN as null), for the
// CSV and text writers, whose figures must match the JSON's.
std::string json_number_text(double v);

}  // namespace iowall
