#include "sim/report/json_fields.hpp"

#include <limits>

#include "sim/core/error.hpp"

namespace iowall {

using nlohmann::json;

JsonFields::JsonFields(const json& obj, const std::string& file, std::string at, const char* what)
    : obj_(obj), file_(file), at_(std::move(at)) {
  if (!obj.is_object()) throw InputError(file_, at_, what);
}

bool JsonFields::has(const char* key) const { return obj_.contains(key); }

std::string JsonFields::pointer(const std::string& key) const {
  std::string p = at_ + "/";
  for (char c : key) p += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return p;
}

std::string JsonFields::pointer(const std::string& key, std::size_t index) const {
  return pointer(key) + "/" + std::to_string(index);
}

void JsonFields::fail(const std::string& key, const std::string& message) const {
  throw InputError(file_, pointer(key), message);
}

void JsonFields::fail(const std::string& key, std::size_t index, const std::string& message) const {
  throw InputError(file_, pointer(key, index), message);
}

std::optional<double> JsonFields::optional_number(const char* key) const {
  if (!has(key)) return std::nullopt;
  const json& v = obj_[key];
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!v.is_number()) fail(key, "not a number");
  return v.get<double>();
}

double JsonFields::number(const char* key, double fallback) const { return optional_number(key).value_or(fallback); }

std::int64_t JsonFields::integer(const char* key, std::int64_t fallback) const {
  if (!has(key)) return fallback;
  const json& v = obj_[key];
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    fail(key, "beyond the range of a 64-bit integer");
  if (!v.is_number_integer()) fail(key, "not an integer");
  return v.get<std::int64_t>();
}

std::optional<std::uint64_t> JsonFields::optional_unsigned(const char* key) const {
  if (!has(key)) return std::nullopt;
  const json& v = obj_[key];
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0))
    fail(key, "not a non-negative integer");
  return v.get<std::uint64_t>();
}

std::uint64_t JsonFields::unsigned_integer(const char* key, std::uint64_t fallback) const {
  return optional_unsigned(key).value_or(fallback);
}

std::optional<std::string> JsonFields::optional_text(const char* key) const {
  if (!has(key)) return std::nullopt;
  const json& v = obj_[key];
  if (!v.is_string()) fail(key, "not a string");
  return v.get<std::string>();
}

std::string JsonFields::text(const char* key, const std::string& fallback) const {
  return optional_text(key).value_or(fallback);
}

std::string json_number_text(double v) { return json(v).dump(); }

std::vector<std::string> JsonFields::texts(const char* key) const {
  std::vector<std::string> out;
  if (!has(key)) return out;
  const nlohmann::json& a = at(key);
  if (!a.is_array()) fail(key, "not an array of strings");
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_string()) fail(key, i, "not a string");
    out.push_back(a[i].get<std::string>());
  }
  return out;
}

}  // namespace iowall
