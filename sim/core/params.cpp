#include "sim/core/params.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/quote.hpp"
#include "sim/core/suggest.hpp"
#include "sim/core/uncertain.hpp"

namespace iowall {

const char* param_type_name(ParamType t) {
  switch (t) {
    case ParamType::time: return "time";
    case ParamType::bytes: return "size";
    case ParamType::bandwidth: return "bandwidth";
    case ParamType::rate: return "rate";
    case ParamType::frequency: return "frequency";
    case ParamType::power: return "power";
    case ParamType::integer: return "integer";
    case ParamType::number: return "number";
    case ParamType::boolean: return "boolean";
    case ParamType::text: return "string";
    case ParamType::choice: return "choice";
    case ParamType::component: return "component";
  }
  return "?";
}

const char* param_type_example(ParamType t) {
  switch (t) {
    case ParamType::time: return "\"60 us\"";
    case ParamType::bytes: return "\"4 KiB\"";
    case ParamType::bandwidth: return "\"32 GB/s\"";
    case ParamType::rate: return "\"3.3 M/s\"";
    case ParamType::frequency: return "\"2.5 GHz\"";
    case ParamType::power: return "\"700 W\"";
    case ParamType::integer: return "16";
    case ParamType::number: return "0.5";
    case ParamType::boolean: return "true";
    case ParamType::text: return "\"name\"";
    case ParamType::choice: return "\"one of the listed names\"";
    case ParamType::component: return "\"a model's name\" or {\"model\": \"name\", ...}";
  }
  return "";
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    const auto comma = s.find(',', pos);
    std::string item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

std::string Params::id() const {
  const auto it = json_.find("id");
  return it != json_.end() && it->is_string() ? it->get<std::string>() : std::string("?");
}

const Json* Params::find(const ParamInfo& info) const {
  // Record the declaration once per name (a model may read a parameter twice).
  bool known = false;
  for (const auto& d : *declared_) known = known || d.name == info.name;
  if (!known) declared_->push_back(info);
  used_->insert(info.name);
  if (const auto it = json_.find(info.name); it != json_.end()) return &*it;
  if (const auto it = node_json_.find(info.name); it != node_json_.end()) return &*it;
  return nullptr;
}

namespace {

// Ranges that every parameter of a kind keeps, so that a value that parses cannot break
// the engine (a clock of 2^63 ps spans 106 days) or be read as something it is not: a
// zero rate is refused unless the parameter documents what zero means ("0: ..." or
// "unlimited") instead of silently removing a limit.
bool documents_zero(const std::string& def, const std::string& desc) {
  return desc.find("unlimited") != std::string::npos || desc.find("0:") != std::string::npos ||
         desc.find("0 =") != std::string::npos;
}
bool default_is_zero(const std::string& def) {
  const auto sp = def.find(' ');
  const std::string num = def.substr(0, sp);
  return !num.empty() && num.find_first_not_of("0.") == std::string::npos;
}
constexpr i64 kMaxParamPs = 3'600LL * 1'000'000'000'000LL;  // one hour

std::string physical_range_problem(Time t, const std::string&, const std::string&) {
  if (t > Time(kMaxParamPs)) return "is longer than 1 h, the most any device or protocol time may be";
  return "";
}
std::string physical_range_problem(Bytes b, const std::string& def, const std::string& desc) {
  if (b.is_zero() && !default_is_zero(def) && !documents_zero(def, desc)) return "must be more than 0 B";
  return "";
}
std::string physical_range_problem(Bandwidth b, const std::string& def, const std::string& desc) {
  if (b.is_zero()) return default_is_zero(def) || documents_zero(def, desc) ? "" : "must be more than 0 (0 is not \"unlimited\")";
  if (b < Bandwidth(1'000'000)) return "is below 1 Mb/s, slower than any link or device modelled";
  return "";
}
std::string physical_range_problem(Rate r, const std::string& def, const std::string& desc) {
  if (r.is_zero()) return default_is_zero(def) || documents_zero(def, desc) ? "" : "must be more than 0 (0 is not \"unlimited\")";
  if (r < Rate::per_s(1)) return "is below 1 /s, slower than any device modelled";
  return "";
}
std::string physical_range_problem(Frequency f, const std::string& def, const std::string& desc) {
  if (f.is_zero()) return default_is_zero(def) || documents_zero(def, desc) ? "" : "must be more than 0 Hz";
  if (f < Frequency(1'000'000)) return "is below 1 MHz, slower than any clock modelled";
  return "";
}
std::string physical_range_problem(Power, const std::string&, const std::string&) { return ""; }

template <typename T> struct QuantityOf;
template <> struct QuantityOf<Time> { static constexpr QuantityKind kind = QuantityKind::time; };
template <> struct QuantityOf<Bytes> { static constexpr QuantityKind kind = QuantityKind::bytes; };
template <> struct QuantityOf<Bandwidth> { static constexpr QuantityKind kind = QuantityKind::bandwidth; };
template <> struct QuantityOf<Rate> { static constexpr QuantityKind kind = QuantityKind::rate; };
template <> struct QuantityOf<Frequency> { static constexpr QuantityKind kind = QuantityKind::frequency; };
template <> struct QuantityOf<Power> { static constexpr QuantityKind kind = QuantityKind::power; };

template <typename T>
T quantity(const Params& p, ParamType type, const std::string& name, const std::string& def,
           const std::string& desc, const std::string& src, ParseResult (*parse)(std::string_view, T&),
           const Json* value) {
  T out{};
  if (value == nullptr) {
    if (def.empty()) {
      if (p.describing()) return out;
      p.fail(name, fmt::format("missing required {} (expected e.g. {})", param_type_name(type), param_type_example(type)));
    }
    const ParseResult r = parse(def, out);
    if (!r.ok) throw std::logic_error("bad default for " + name + ": " + r.error);
    return out;
  }
  if (!value->is_string())
    p.fail(name, fmt::format("{} is not a {} with its unit (expected e.g. {}): a bare number is ambiguous",
                             quote_json(*value), param_type_name(type), param_type_example(type)));
  const std::string& text = value->get_ref<const std::string&>();
  if (has_uncertainty(text)) {
    // A value with its uncertainty (sim/core/uncertain.hpp): a run reads the nominal value;
    // both ends of the spread must be values the parameter could take.
    Uncertain u;
    if (const ParseResult r = parse_uncertain(text, QuantityOf<T>::kind, u); !r.ok) p.fail(name, r.error);
    for (const i64 end : {u.low, u.high})
      if (const std::string why = physical_range_problem(T(end), def, desc); !why.empty())
        p.fail(name, fmt::format("{}: its spread reaches {}, which {}", quote_json(*value), quantity_text(u.kind, end), why));
    out = T(u.nominal);
  } else if (const ParseResult r = parse(text, out); !r.ok) {
    p.fail(name, r.error);
  }
  if (const std::string why = physical_range_problem(out, def, desc); !why.empty())
    p.fail(name, fmt::format("{} {}", quote_json(*value), why));
  (void)src;
  return out;
}

}  // namespace

#define IOWALL_QUANTITY_GETTER(Method, T, Type, Parser)                                                    \
  T Params::Method(const std::string& name, const std::string& def, const std::string& desc,              \
                   const std::string& src) const {                                                        \
    const Json* v = find(ParamInfo{name, ParamType::Type, def, desc, src, {}});                           \
    return quantity<T>(*this, ParamType::Type, name, def, desc, src, &Parser, v);                         \
  }
IOWALL_QUANTITY_GETTER(get_time, Time, time, parse_time)
IOWALL_QUANTITY_GETTER(get_bytes, Bytes, bytes, parse_bytes)
IOWALL_QUANTITY_GETTER(get_bandwidth, Bandwidth, bandwidth, parse_bandwidth)
IOWALL_QUANTITY_GETTER(get_rate, Rate, rate, parse_rate)
IOWALL_QUANTITY_GETTER(get_frequency, Frequency, frequency, parse_frequency)
IOWALL_QUANTITY_GETTER(get_power, Power, power, parse_power)
#undef IOWALL_QUANTITY_GETTER

i64 Params::get_int(const std::string& name, i64 def, i64 min, i64 max, const std::string& desc,
                    const std::string& src) const {
  ParamInfo info{name, ParamType::integer, std::to_string(def), desc, src, {}, min, max};
  const Json* v = find(info);
  if (!v) return def;
  if (!v->is_number_integer()) fail(name, fmt::format("{} is not an integer (expected e.g. {})", quote_json(*v), def));
  const i64 x = v->get<i64>();
  if (x < min || x > max) fail(name, fmt::format("{} is out of range (expected {} to {})", x, min, max));
  return x;
}

double Params::get_number(const std::string& name, double def, const std::string& desc, const std::string& src) const {
  const Json* v = find(ParamInfo{name, ParamType::number, fmt::format("{}", def), desc, src, {}});
  if (!v) return def;
  if (!v->is_number()) fail(name, fmt::format("{} is not a number (expected e.g. {})", quote_json(*v), def));
  return v->get<double>();
}

double Params::get_number(const std::string& name, double def, double min, double max, const std::string& desc,
                          const std::string& src) const {
  const double x = get_number(name, def, desc, src);
  if (!(x >= min && x <= max)) fail(name, fmt::format("{} is out of range (expected {} to {})", x, min, max));
  return x;
}

bool Params::get_bool(const std::string& name, bool def, const std::string& desc, const std::string& src) const {
  const Json* v = find(ParamInfo{name, ParamType::boolean, def ? "true" : "false", desc, src, {}});
  if (!v) return def;
  if (!v->is_boolean()) fail(name, fmt::format("{} is not true or false", quote_json(*v)));
  return v->get<bool>();
}

std::string Params::get_text(const std::string& name, const std::string& def, const std::string& desc,
                             const std::string& src) const {
  const Json* v = find(ParamInfo{name, ParamType::text, def, desc, src, {}});
  if (!v) return def;
  if (!v->is_string()) fail(name, fmt::format("{} is not a string", quote_json(*v)));
  return v->get<std::string>();
}

std::string Params::get_choice(const std::string& name, const std::string& def, const std::vector<std::string>& choices,
                               const std::string& desc, const std::string& src) const {
  const Json* v = find(ParamInfo{name, ParamType::choice, def, desc, src, choices});
  if (!v) return def;
  if (v->is_string())
    for (const auto& c : choices)
      if (c == v->get<std::string>()) return c;
  fail(name, fmt::format("{} is not one of: {}", quote_json(*v), fmt::join(choices, ", ")));
}

ChildParams Params::get_child(const std::string& name, const std::string& def, const std::string& domain,
                              const std::vector<std::string>& choices, const std::string& desc,
                              const std::string& src) const {
  ParamInfo info{name, ParamType::component, def, desc, src, choices};
  info.domain = domain;
  const Json* v = find(info);
  const auto known = [&](const Json& model) {
    if (model.is_string())
      for (const auto& c : choices)
        if (c == model.get<std::string>()) return true;
    return false;
  };
  ChildParams child{def, Params(Json::object(), JsonLocation{where_.file, pointer_to(name)})};
  child.params.describing_ = describing_;
  if (!v) return child;
  if (v->is_string()) {
    if (!known(*v)) fail(name, fmt::format("{} is not one of: {}", quote_json(*v), fmt::join(choices, ", ")));
    child.model = v->get<std::string>();
    return child;
  }
  if (!v->is_object())
    fail(name, fmt::format("{} is not a {} model's name or an object of its parameters (expected e.g. {})",
                           quote_json(*v), domain, param_type_example(ParamType::component)));
  Json own = *v;
  if (const auto m = own.find("model"); m != own.end()) {
    if (!known(*m))
      throw InputError(where_.file, pointer_to(name) + "/model",
                       fmt::format("{} is not one of: {}", quote_json(*m), fmt::join(choices, ", ")));
    child.model = m->get<std::string>();
    own.erase(m);
  }
  child.params.json_ = std::move(own);
  return child;
}

void Params::check_all_used(const std::set<std::string>& framework_keys) const {
  for (const Json* object : {&json_, &node_json_})
    for (const auto& [key, value] : object->items()) {
      if (framework_keys.count(key) || used_->count(key)) continue;
      std::vector<std::string> known;
      for (const auto& d : *declared_) known.push_back(d.name);
      fail(key, fmt::format("unknown key \"{}\" (this model takes: {}){}", quote_text(key, 60),
                            quote_text(fmt::format("{}", fmt::join(known, ", ")), 160), did_you_mean(key, known)));
    }
}

}  // namespace iowall
