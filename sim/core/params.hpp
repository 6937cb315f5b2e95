// A model's parameters as read from JSON: typed, unit-checked access with errors
// that name the file and JSON pointer. Every read is recorded (name, type, default,
// description, source), which is how models document themselves: `iowall models`
// and the JSON Schema are built from these records, not from a separate list.
// Models declare each parameter next to the member it fills (IOWALL_PARAM, below):
// devices through Device, every other model (a data path, a child component) through
// ParamSet. A named child component ("driver": "irq", or {"model": "irq", ...}) is a
// parameter too: its own parameters sit in its object.
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

enum class ParamType { time, bytes, bandwidth, rate, frequency, power, integer, number, boolean, text, choice, component };

struct ParamInfo {
  std::string name;
  ParamType type;
  std::string default_text;  // empty: required
  std::string description;
  std::string source;
  std::vector<std::string> choices;  // for ParamType::choice and component (the models' names)
  i64 min = INT64_MIN, max = INT64_MAX;  // for ParamType::integer
  std::string domain = {};  // for ParamType::component: the registry domain of the child's models
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

class Params;

// A named child component's choice and parameters (Params::get_child).
struct ChildParams;

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
  // The same parameters with `node`'s keys read where the object leaves them out: the
  // settings a machine gives a model (a topology's "paths" entry for a data path: its
  // kernel's page cache and block queues), which the scenario's own keys override. An
  // error about one of them names `where`, the machine's file.
  Params with_node(Json node, JsonLocation where) const {
    Params q = *this;
    q.node_json_ = std::move(node);
    q.node_where_ = std::move(where);
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
  // A named child component of `domain`: "name": "model", or "name": {"model": "model",
  // its parameters...} ({"model"} may be left out for the default). The child's Params
  // point into its object (or at an empty one) and record their own reads.
  ChildParams get_child(const std::string& name, const std::string& def, const std::string& domain,
                        const std::vector<std::string>& choices, const std::string& desc, const std::string& src) const;

  // Keys the model did not read (besides the framework's own keys): unknown keys are errors.
  void check_all_used(const std::set<std::string>& framework_keys) const;
  const std::vector<ParamInfo>& declared() const { return *declared_; }

  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    if (!key.empty() && !json_.contains(key) && node_json_.contains(key))
      throw InputError(node_where_.file, node_where_.pointer + "/" + key, message);
    throw InputError(where_.file, key.empty() ? where_.pointer : pointer_to(key), message);
  }

private:
  const Json* find(const ParamInfo& info) const;
  Json json_;
  JsonLocation where_;
  Json node_json_ = Json::object();  // with_node's settings
  JsonLocation node_where_;
  bool describing_ = false;
  // Shared so that copies of a Params keep recording into one list.
  std::shared_ptr<std::vector<ParamInfo>> declared_ = std::make_shared<std::vector<ParamInfo>>();
  std::shared_ptr<std::set<std::string>> used_ = std::make_shared<std::set<std::string>>();
};

struct ChildParams {
  std::string model;  // the child's model name, one of the declared choices
  Params params;      // its own parameters (without "model")
};

// Typed reads, one per parameter type, for IOWALL_PARAM.
template <typename T>
T read_param(const Params& p, const std::string& name, const char* def, const char* desc, const char* src);
template <> inline Time read_param<Time>(const Params& p, const std::string& n, const char* d, const char* ds, const char* s) { return p.get_time(n, d, ds, s); }
template <> inline Bytes read_param<Bytes>(const Params& p, const std::string& n, const char* d, const char* ds, const char* s) { return p.get_bytes(n, d, ds, s); }
template <> inline Bandwidth read_param<Bandwidth>(const Params& p, const std::string& n, const char* d, const char* ds, const char* s) { return p.get_bandwidth(n, d, ds, s); }
template <> inline Rate read_param<Rate>(const Params& p, const std::string& n, const char* d, const char* ds, const char* s) { return p.get_rate(n, d, ds, s); }
template <> inline Frequency read_param<Frequency>(const Params& p, const std::string& n, const char* d, const char* ds, const char* s) { return p.get_frequency(n, d, ds, s); }
template <> inline Power read_param<Power>(const Params& p, const std::string& n, const char* d, const char* ds, const char* s) { return p.get_power(n, d, ds, s); }
template <> inline std::string read_param<std::string>(const Params& p, const std::string& n, const char* d, const char* ds, const char* s) { return p.get_text(n, d, ds, s); }

// The parameters of a model that is not a device (a data path, a child component): a
// class derives from it and declares its members with IOWALL_PARAM, as a device does.
// Members are read in declaration order when the object is built; on a describing
// Params (Params::describe()) they take their defaults and document the model.
class ParamSet {
public:
  explicit ParamSet(const Params& p) : params_(p) {}
  const Params& params() const { return params_; }
  template <typename T>
  T param_value(const std::string& name, const char* def, const char* desc, const char* src) const {
    return read_param<T>(params_, name, def, desc, src);
  }

private:
  Params params_;  // a copy that records into the same lists
};

// A parameter declared next to the member it fills, in a Device or a ParamSet:
//   IOWALL_PARAM(Time, read_latency, "60 us", "median 4 KiB read latency", "datasheet");
#define IOWALL_PARAM(Type, name, def, desc, source) Type name = this->param_value<Type>(#name, def, desc, source)
#define IOWALL_PARAM_INT(name, def, min, max, desc, source) \
  ::iowall::i64 name = this->params().get_int(#name, def, min, max, desc, source)
#define IOWALL_PARAM_NUMBER(name, def, min, max, desc, source) \
  double name = this->params().get_number(#name, def, min, max, desc, source)
#define IOWALL_PARAM_BOOL(name, def, desc, source) bool name = this->params().get_bool(#name, def, desc, source)
#define IOWALL_PARAM_CHOICE(name, def, choices, desc, source) \
  std::string name = this->params().get_choice(#name, def, choices, desc, source)
// A named child component of registry domain DOMAIN (its models' names: `choices`).
#define IOWALL_PARAM_CHILD(name, def, domain, choices, desc, source) \
  ::iowall::ChildParams name = this->params().get_child(#name, def, domain, choices, desc, source)

}  // namespace iowall
