#include "sim/config/json_fields.hpp"

#include <limits>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/quote.hpp"

namespace iowall {

using nlohmann::json;

JsonFields::JsonFields(const json& obj, std::string file, std::string at, const char* what)
    : obj_(obj), file_(std::move(file)), at_(std::move(at)) {
  if (!obj.is_object()) throw InputError(file_, at_, what);
}

JsonFields::JsonFields(const json& settings, const std::map<std::string, std::string>& origin)
    : obj_(settings), origin_(&origin) {}

bool JsonFields::has(const std::string& key) const { return obj_.contains(key); }

std::string JsonFields::pointer(const std::string& key) const {
  std::string p = at_ + "/";
  for (char c : key) p += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return p;
}

std::string JsonFields::pointer(const std::string& key, std::size_t index) const {
  return pointer(key) + "/" + std::to_string(index);
}

void JsonFields::fail(const std::string& key, const std::string& message) const {
  if (!origin_) throw InputError(file_, pointer(key), message);
  const auto it = origin_->find(key);
  const std::string o = it == origin_->end() ? "--" + key : it->second;
  const auto hash = o.find('#');
  if (hash == std::string::npos) throw InputError("", o, message);
  throw InputError(o.substr(0, hash), o.substr(hash + 1), message);
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

void JsonFields::only(const std::set<std::string>& known) const {
  for (const auto& [k, v] : obj_.items())
    if (!known.count(k)) fail(k, fmt::format("unknown key \"{}\" (expected {})", quote_text(k, 60), fmt::join(known, ", ")));
}

const json& JsonFields::required(const std::string& key) const {
  if (!has(key)) throw InputError(file_, at_, fmt::format("\"{}\" is required", key));
  return obj_.at(key);
}

std::string JsonFields::required_text(const std::string& key) const {
  const json& v = required(key);
  if (!v.is_string()) fail(key, fmt::format("{} is not text", quote_json(v)));
  return v.get<std::string>();
}

int JsonFields::integer_in(const std::string& key, int lo, int hi) const {
  const json& v = required(key);
  if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
    fail(key, fmt::format("{} is not an integer from {} to {}", quote_json(v), lo, hi));
  return v.get<int>();
}

double JsonFields::number_at_least(const std::string& key, double lo) const {
  const json& v = required(key);
  if (!v.is_number() || !(v.get<double>() >= lo)) fail(key, fmt::format("{} is not a number of at least {}", quote_json(v), lo));
  return v.get<double>();
}

std::string JsonFields::unit_text(const std::string& key, const char* example) const {
  const json& v = required(key);
  if (!v.is_string())
    fail(key, example ? fmt::format("{} is a bare number: give it with its unit (\"{}\")", quote_json(v), example)
                      : fmt::format("{} is a bare number: give it with its unit", quote_json(v)));
  return v.get<std::string>();
}

double JsonFields::positive_bandwidth(const std::string& key, const char* example) const {
  const Bandwidth b = quantity<Bandwidth>(key, parse_bandwidth, example);
  if (!b.is_positive()) fail(key, "must be positive");
  return b.bytes_per_s_value();
}

}  // namespace iowall
