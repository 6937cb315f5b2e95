#include "sim/config/schema.hpp"

#include "sim/config/json_limits.hpp"
#include "sim/core/suggest.hpp"

#include <fmt/format.h>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

namespace iowall {
namespace {

// A number followed by one of the unit names the parser accepts, optionally with its
// uncertainty ("+- 5%", "± 10 us", ".. 150 us", "(92 us .. 150 us)": sim/core/uncertain.hpp).
// The parser is the final word; the pattern catches a bare number or a missing unit early.
const char* kQuantityPattern =
    "^\\s*[+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?\\s*[A-Za-z/\\xB5\\xC2]+\\s*((\\+-|\\xC2\\xB1|\\.\\.|\\().*)?$";

// valijson reports where it failed as ["<root>", "[devices]", "[3]", ...]: make a JSON pointer.
std::string context_to_pointer(const std::vector<std::string>& context) {
  std::string out;
  for (const std::string& c : context) {
    if (c == "<root>" || c.size() < 2) continue;
    std::string key = c.substr(1, c.size() - 2);
    if (!key.empty() && key.front() == '"') key = key.substr(1, key.size() - 2);
    out += "/" + key;
  }
  return out;
}

// The JSON type of a value as JSON Schema names it.
std::string json_type(const Json& v) {
  if (v.is_number_integer()) return "integer";
  if (v.is_number()) return "number";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  return "null";
}

// The branch of an allOf of if/then schemas that applies to `instance` (the device
// model's own schema), or `node` itself when it has no such branches.
// A oneOf of branches of different types (a path by name or as an object) narrows to
// the branch of the instance's type.
const Json* effective(const Json* node, const Json& instance) {
  if (node->contains("oneOf"))
    for (const Json& branch : (*node)["oneOf"])
      if (branch.value("type", "") == json_type(instance)) return effective(&branch, instance);
  if (!node->contains("allOf") || !instance.is_object()) return node;
  for (const Json& branch : (*node)["allOf"]) {
    // Branches chosen by a model name (a device's, a child component's); the others
    // (a child given by name or by object) do not narrow the schema.
    if (!branch.contains("if") || !branch.contains("then") || !branch["if"].contains("properties")) continue;
    bool match = true;
    for (const auto& [key, cond] : branch["if"]["properties"].items())
      match = match && cond.contains("const") && instance.contains(key) && instance[key] == cond["const"];
    if (match) return &branch["then"];
  }
  return node;
}

// Finds the sub-schema that describes the instance at `pointer`, following object
// properties, array items and the if/then branch chosen by the instance.
const Json* schema_at(const Json& schema, const Json& root, const std::string& pointer) {
  const Json* node = &schema;
  const Json* inst = &root;
  std::size_t pos = 1;
  while (!pointer.empty() && pos <= pointer.size()) {
    const std::size_t next = pointer.find('/', pos);
    const std::string key = pointer.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
    node = effective(node, *inst);
    if (inst->is_object() && node->contains("properties") && (*node)["properties"].contains(key)) {
      node = &(*node)["properties"][key];
      inst = &(*inst)[key];
    } else if (inst->is_array() && node->contains("items")) {
      node = &(*node)["items"];
      inst = &(*inst)[static_cast<std::size_t>(std::stoul(key))];
    } else {
      return nullptr;
    }
    if (next == std::string::npos) break;
    pos = next + 1;
  }
  return effective(node, *inst);
}


// What is wrong with `v` against a node with a "type": the type, or a bound.
std::string shape_message(const Json& node, const Json& v, const std::string& fallback) {
  std::vector<std::string> types;
  if (node["type"].is_string()) types.push_back(node["type"]);
  else for (const auto& t : node["type"]) types.push_back(t);
  const std::string actual = json_type(v);
  bool ok = false;
  for (const auto& t : types) ok = ok || t == actual || (t == "number" && actual == "integer");
  if (!ok) return fmt::format("{} is not {} (expected {})", quote_json(v), "of the right type", fmt::join(types, " or "));
  if (node.contains("minimum") && v.is_number() && v.get<double>() < node["minimum"].get<double>())
    return fmt::format("{} is below the minimum {}", quote_json(v), node["minimum"].dump());
  if (node.contains("maximum") && v.is_number() && v.get<double>() > node["maximum"].get<double>())
    return fmt::format("{} is above the maximum {}", quote_json(v), node["maximum"].dump());
  if (node.contains("minItems") && v.is_array() && v.size() < node["minItems"].get<std::size_t>())
    return fmt::format("has {} items, expected at least {}", v.size(), node["minItems"].dump());
  return fallback;
}

// `v` is not among the node's "enum" strings: name them, and the close ones.
std::string enum_message(const Json& node, const Json& v) {
  std::vector<std::string> names;
  for (const Json& e : node["enum"])
    if (e.is_string()) names.push_back(e);
  return fmt::format("{} is not one of: {}{}", quote_json(v), fmt::join(names, ", "),
                     v.is_string() ? did_you_mean(v.get<std::string>(), names) : std::string());
}

}  // namespace

const std::set<std::string>& device_framework_keys() {
  static const std::set<std::string> keys{"id", "model", "preset", "description"};
  return keys;
}

Json param_schema(const ParamInfo& p) {
  Json s;
  switch (p.type) {
    case ParamType::time:
    case ParamType::bytes:
    case ParamType::bandwidth:
    case ParamType::rate:
    case ParamType::frequency:
    case ParamType::power:
      s = {{"type", "string"},
           {"pattern", kQuantityPattern},
           {"x-iowall-unit", param_type_name(p.type)},
           {"x-iowall-example", param_type_example(p.type)}};
      break;
    case ParamType::integer:
      s = {{"type", "integer"}};
      if (p.min != INT64_MIN) s["minimum"] = p.min;
      if (p.max != INT64_MAX) s["maximum"] = p.max;
      break;
    case ParamType::number: s = {{"type", "number"}}; break;
    case ParamType::boolean: s = {{"type", "boolean"}}; break;
    case ParamType::text: s = {{"type", "string"}}; break;
    case ParamType::choice: s = {{"type", "string"}, {"enum", p.choices}}; break;
    case ParamType::component: {
      // A model's name, or an object of its parameters ("model" names it; left out: the
      // default), checked against that model's own schema.
      Json branches = Json::array();
      branches.push_back({{"if", {{"type", "string"}}}, {"then", {{"enum", p.choices}}}});
      for (const std::string& name : p.choices) {
        const ModelEntry* e = ModelRegistry::instance().find(p.domain, name);
        if (!e) continue;
        const Json own = model_schema(*e, {{"model", {{"const", name}}}}, {});
        branches.push_back({{"if", {{"type", "object"}, {"properties", {{"model", {{"const", name}}}}}, {"required", {"model"}}}},
                            {"then", own}});
        if (name == p.default_text)
          branches.push_back({{"if", {{"type", "object"}, {"not", {{"required", {"model"}}}}}}, {"then", own}});
      }
      s = {{"type", Json::array({"string", "object"})},
           {"properties", {{"model", {{"type", "string"}, {"enum", p.choices}}}}},
           {"x-iowall-models", p.choices},
           {"allOf", branches}};
      break;
    }
  }
  std::string desc = p.description;
  if (!p.default_text.empty()) desc += fmt::format(" (default {})", p.default_text);
  if (!p.source.empty()) desc += fmt::format(" [source: {}]", p.source);
  s["description"] = desc;
  return s;
}

Json model_schema(const ModelEntry& e, const Json& extra_properties, const std::vector<std::string>& required) {
  Json props = extra_properties;
  std::vector<std::string> req = required;
  for (const ParamInfo& p : e.describe().params) {
    props[p.name] = param_schema(p);
    // A preset can supply a required parameter, so only models without presets require them.
    if (p.default_text.empty() && e.presets.empty()) req.push_back(p.name);
  }
  Json s = {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
  if (!req.empty()) s["required"] = req;
  s["description"] = e.description;
  return s;
}

Json topology_schema() {
  auto& reg = ModelRegistry::instance();
  Json branches = Json::array();
  for (const ModelEntry* e : reg.all("device")) {
    std::vector<std::string> presets;
    for (const auto& [name, p] : e->presets) presets.push_back(name);
    Json extra = {{"id", {{"type", "string"}, {"pattern", "^[A-Za-z_][A-Za-z0-9_-]*$"}}},
                  {"model", {{"const", e->name}}},
                  {"description", {{"type", "string"}}}};
    if (!presets.empty()) extra["preset"] = {{"type", "string"}, {"enum", presets}};
    branches.push_back({{"if", {{"properties", {{"model", {{"const", e->name}}}}}}},
                        {"then", model_schema(*e, extra, {"id", "model"})}});
  }
  Json link_props = {{"a", {{"type", "string"}, {"pattern", "^[^.]+\\.[^.]+$"}}},
                     {"b", {{"type", "string"}, {"pattern", "^[^.]+\\.[^.]+$"}}}};
  for (const ModelEntry* e : reg.all("link")) link_props[e->name] = model_schema(*e, Json::object(), {});
  Json path_props = Json::object();
  for (const ModelEntry* e : reg.all("path")) path_props[e->name] = model_schema(*e, Json::object(), {});
  return {{"$schema", "http://json-schema.org/draft-07/schema#"},
          {"title", "iowall topology"},
          {"type", "object"},
          {"required", {"name", "devices", "links"}},
          {"additionalProperties", false},
          {"properties",
           {{"$schema", {{"type", "string"}, {"description", "the URL of a JSON Schema, for editors; ignored"}}},
            {"name", {{"type", "string"}, {"description", "the machine's name"}}},
            {"description", {{"type", "string"}, {"description", "what the machine is, for people"}}},
            {"sources", {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", "where the figures come from"}}},
            {"devices",
             {{"type", "array"},
              {"items",
               {{"type", "object"},
                {"required", {"id", "model"}},
                {"properties", {{"model", {{"type", "string"}, {"enum", reg.names("device")}}}}},
                {"allOf", branches}}}}},
            {"links",
             {{"type", "array"},
              {"items",
               {{"type", "object"},
                {"required", {"a", "b"}},
                {"additionalProperties", false},
                {"properties", link_props}}}}},
            {"paths",
             {{"type", "object"},
              {"description", "the machine's own settings for a data path (its kernel's page cache and writeback, "
                              "its block queues), keyed by the path's name; a scenario's path entry overrides them "
                              "key by key"},
              {"additionalProperties", false},
              {"properties", path_props}}}}}};
}

namespace {

// The schema's patterns run through std::regex, whose matcher recurses once per
// character: strings are bounded before they reach it (a 60,000-character id overflowed
// the stack). The walk keeps its own stack; the parser already bounded the depth.
constexpr std::size_t kMaxSchemaString = 4096;

void check_string_lengths(const Json& value, const std::string& file, const std::string& pointer) {
  std::vector<std::pair<const Json*, std::string>> todo{{&value, ""}};
  while (!todo.empty()) {
    auto [v, at] = todo.back();
    todo.pop_back();
    if (v->is_string() && v->get_ref<const std::string&>().size() > kMaxSchemaString)
      throw InputError(file, pointer + at,
                       fmt::format("a string of {} bytes is longer than the {} a scenario or topology may hold",
                                   v->get_ref<const std::string&>().size(), kMaxSchemaString));
    if (v->is_object())
      for (const auto& [k, child] : v->items()) todo.emplace_back(&child, at + "/" + quote_text(k, 60));
    if (v->is_array())
      for (std::size_t i = 0; i < v->size(); ++i) todo.emplace_back(&(*v)[i], at + "/" + std::to_string(i));
  }
}

}  // namespace

void validate_json(const Json& schema, const Json& value, const std::string& file, const std::string& pointer) {
  check_string_lengths(value, file, pointer);
  valijson::Schema compiled;
  valijson::SchemaParser parser;
  valijson::adapters::NlohmannJsonAdapter schema_adapter(schema);
  parser.populateSchema(schema_adapter, compiled);
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(value);
  if (validator.validate(compiled, target, &results)) return;
  // valijson reports the outermost failure first; the innermost one is the most precise,
  // and at one depth a specific failure (a missing key) beats "no child schema matched".
  valijson::ValidationResults::Error err, deepest;
  const auto generic = [](const std::string& d) { return d.rfind("Failed to validate against", 0) == 0; };
  while (results.popError(err))
    if (err.context.size() > deepest.context.size() ||
        (err.context.size() == deepest.context.size() && (generic(deepest.description) || !generic(err.description))))
      deepest = err;
  const std::string where = context_to_pointer(deepest.context);
  std::string message = deepest.description;
  Json::json_pointer ptr;
  try {
    ptr = Json::json_pointer(where);
  } catch (const Json::exception&) {
  }
  const Json* node = nullptr;
  try {
    node = schema_at(schema, value, where);
  } catch (const std::exception&) {
  }
  if (value.contains(ptr)) {
    const Json& v = value.at(ptr);
    if (node && node->contains("x-iowall-unit")) {
      const std::string unit = (*node)["x-iowall-unit"];
      const std::string example = (*node)["x-iowall-example"];
      message = v.is_string() ? fmt::format("\"{}\" is not a {} (expected e.g. {})", quote_text(v.get<std::string>()), unit, example)
                              : fmt::format("{} is not a {} with its unit (expected e.g. {}): a bare number is ambiguous",
                                            quote_json(v), unit, example);
    } else if (node && node->contains("x-iowall-models") && v.is_string()) {
      const auto names = (*node)["x-iowall-models"].get<std::vector<std::string>>();
      message = fmt::format("{} is not one of: {}{}", quote_json(v), fmt::join(names, ", "), did_you_mean(v.get<std::string>(), names));
    } else if (node && node->contains("enum")) {
      message = enum_message(*node, v);
    } else if (node && node->contains("oneOf")) {
      // A string or an object (a path by name, or with parameters): the branch of the
      // value's type says what is wrong, not "no child schema matched".
      std::vector<std::string> types;
      for (const Json& branch : (*node)["oneOf"]) types.push_back(branch.value("type", "?"));
      message = fmt::format("{} is not of the right type (expected {})", quote_json(v), fmt::join(types, " or "));
      for (const Json& branch : (*node)["oneOf"])
        if (branch.value("type", "") == json_type(v)) {
          if (branch.contains("enum")) message = enum_message(branch, v);
          break;
        }
    } else if (node && v.is_object() && node->contains("properties") && node->value("additionalProperties", true) == false) {
      // An unknown key: name it and what the object takes.
      std::vector<std::string> known;
      for (const auto& [k, unused] : (*node)["properties"].items()) known.push_back(k);
      for (const auto& [k, unused] : v.items())
        if (!(*node)["properties"].contains(k)) {
          message = fmt::format("unknown key \"{}\" (expected one of: {}){}", quote_text(k, 60), fmt::join(known, ", "),
                                did_you_mean(k, known));
          break;
        }
    } else if (node && node->contains("type")) {
      message = shape_message(*node, v, message);
    }
  }
  throw InputError(file, pointer + where, message);
}

}  // namespace iowall
