// A device's parameters as read from JSON: typed, unit-checked access with errors
// that name the file and JSON pointer. Every read is recorded (name, type, default,
// description, source), which is how models document themselves: `iowall models`
// and the JSON Schema are built from these records, not from a separate list.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace iowall {

using Json = nlohmann::json;

enum class ParamType { time, bytes, bandwidth, rate, frequency, power, integer, number, boolean, text, choice };

struct ParamInfo {
  std::string name;
  ParamType type;
  std::string default_text;  // empty: required
  std::string description;
  std::string source;
  std::vector<std::string> choices;  // for ParamType::choice
  i64 min = INT64_MIN, max = INT64_MAX;  // for ParamType::integer
};

const char* param_type_name(ParamType t);
// The items of a comma-separated list, trimmed of spaces, empty ones dropped.
std::vector<std::string> split_list(const std::string& s);
// An example value of the type, for messages and documentation.
const char* param_type_example(ParamType t);

// Where a JSON value came from, for error messages.
struct JsonLocation {
  std::string file;     // file name, or "<inline>" / "--set"
  std::string pointer;  // JSON pointer of the object
};

class Params {
public:
  Params(Json object, JsonLocation where) : json_(std::move(object)), where_(std::move(where)) {}
  // A Params that only records declarations and returns defaults (for `iowall models`).
  static Params describe() { Params p(Json::object(), {"<describe>", ""}); p.describing_ = true; return p; }

  bool describing() const { return describing_; }
  // The same parameters with `key` set to `value`, for a model that configures another
  // one it builds on; declarations and used keys stay shared with this one.
  Params with(const std::string& key, Json value) const {
    Params q = *this;
    q.json_[key] = std::move(value);
    return q;
  }
  const Json& json() const { return json_; }
  const JsonLocation& where() const { return where_; }
  std::string pointer_to(const std::string& key) const { return where_.pointer + "/" + key; }
  std::string id() const;

  Time get_time(const std::string& name, const std::string& def, const std::string& desc, const std::string& src) const;
  Bytes get_bytes(const std::string& name, const std::string& def, const std::string& desc, const std::string& src) const;
  Bandwidth get_bandwidth(const std::string& name, const std::string& def, const std::string& desc, const std::string& src) const;
  Rate get_rate(const std::string& name, const std::string& def, const std::string& desc, const std::string& src) const;
  Frequency get_frequency(const std::string& name, const std::string& def, const std::string& desc, const std::string& src) const;
  Power get_power(const std::string& name, const std::string& def, const std::string& desc, const std::string& src) const;
  i64 get_int(const std::string& name, i64 def, i64 min, i64 max, const std::string& desc, const std::string& src) const;
  double get_number(const std::string& name, double def, const std::string& desc, const std::string& src) const;
  // The same, refusing values outside [min, max] (a probability, a share, a spread).
  double get_number(const std::string& name, double def, double min, double max, const std::string& desc,
                    const std::string& src) const;
  bool get_bool(const std::string& name, bool def, const std::string& desc, const std::string& src) const;
  std::string get_text(const std::string& name, const std::string& def, const std::string& desc, const std::string& src) const;
  std::string get_choice(const std::string& name, const std::string& def, const std::vector<std::string>& choices,
                         const std::string& desc, const std::string& src) const;

  // Keys the model did not read (besides the framework's own keys): unknown keys are errors.
  void check_all_used(const std::set<std::string>& framework_keys) const;
  const std::vector<ParamInfo>& declared() const { return *declared_; }

  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    throw InputError(where_.file, key.empty() ? where_.pointer : pointer_to(key), message);
  }

private:
  const Json* find(const ParamInfo& info) const;
  Json json_;
  JsonLocation where_;
  bool describing_ = false;
  // Shared so that copies of a Params keep recording into one list.
  std::shared_ptr<std::vector<ParamInfo>> declared_ = std::make_shared<std::vector<ParamInfo>>();
  std::shared_ptr<std::set<std::string>> used_ = std::make_shared<std::set<std::string>>();
};

}  // namespace iowall
