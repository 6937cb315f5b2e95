#include "sim/run/uncertain_inputs.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "sim/config/registry.hpp"
#include "sim/config/schema.hpp"
#include "sim/core/error.hpp"
#include "sim/core/rng.hpp"

namespace iowall {
namespace {

// Where a value sits: its file and pointer, and whose it is (for the input's label).
struct Place {
  const std::string& file;
  std::string pointer;
  std::string owner;
};
// Called for every string member of an object: (key, value, where). May replace the value.
using Visit = std::function<void(const std::string&, Json&, const Place&)>;

void walk(Json& object, const Place& at, const std::set<std::string>& skip, const Visit& visit) {
  if (!object.is_object()) return;
  for (auto& [key, value] : object.items()) {
    if (skip.count(key)) continue;
    const Place here{at.file, at.pointer + "/" + key, at.owner};
    if (value.is_string()) {
      visit(key, value, here);
    } else if (value.is_object()) {
      walk(value, here, {"model"}, visit);  // a child component: its own parameters
    } else if (value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i)
        walk(value[i], Place{at.file, here.pointer + "/" + std::to_string(i), at.owner}, {"model"}, visit);
    }
  }
}

// Every quantity value of the scenario's inputs, the values of device presets included:
// `preset(key, text, where, device)` sees a preset's value that the device does not override.
void walk_scenario(Scenario& sc, const Visit& visit,
                   const std::function<void(const std::string&, const std::string&, const Place&, Json&)>& preset) {
  const std::string& tfile = sc.topology_file;
  if (sc.topology.contains("devices") && sc.topology["devices"].is_array()) {
    Json& devices = sc.topology["devices"];
    for (std::size_t i = 0; i < devices.size(); ++i) {
      Json& d = devices[i];
      if (!d.is_object()) continue;
      const std::string ptr = fmt::format("{}/devices/{}", sc.topology_pointer, i);
      const std::string id = d.value("id", fmt::format("device {}", i));
      walk(d, Place{tfile, ptr, id}, device_framework_keys(), visit);
      if (!d.contains("preset") || !d["preset"].is_string() || !d.contains("model") || !d["model"].is_string()) continue;
      const ModelEntry* entry = ModelRegistry::instance().find("device", d["model"].get<std::string>());
      if (!entry) continue;
      const auto it = entry->presets.find(d["preset"].get<std::string>());
      if (it == entry->presets.end()) continue;
      for (const auto& [key, value] : it->second.values.items())
        if (!d.contains(key) && value.is_string())
          preset(key, value.get<std::string>(), Place{tfile, ptr + "/preset", it->first}, d);
    }
  }
  if (sc.topology.contains("links") && sc.topology["links"].is_array()) {
    Json& links = sc.topology["links"];
    for (std::size_t i = 0; i < links.size(); ++i) {
      Json& l = links[i];
      if (!l.is_object()) continue;
      const std::string owner = fmt::format("link {}--{}", l.value("a", "?"), l.value("b", "?"));
      walk(l, Place{tfile, fmt::format("{}/links/{}", sc.topology_pointer, i), owner}, {"a", "b"}, visit);
    }
  }
  if (sc.topology.contains("paths") && sc.topology["paths"].is_object())
    for (auto& [name, settings] : sc.topology["paths"].items())
      if (settings.is_object())
        walk(settings, Place{tfile, fmt::format("{}/paths/{}", sc.topology_pointer, name), "node's " + name}, {}, visit);
  walk(sc.workload, Place{sc.file, "/workload", "workload"}, {}, visit);
  for (PathChoice& p : sc.paths) walk(p.params, Place{sc.file, p.pointer, p.label}, {"name", "label"}, visit);
}

std::string input_key_of(const std::string& name, const std::string& text) { return name + "\n" + text; }

}  // namespace

std::vector<UncertainInput> uncertain_inputs(const Scenario& scenario) {
  std::map<std::string, UncertainInput> found;
  const auto record = [&](const std::string& key, const std::string& text, const Place& at) {
    if (!has_uncertainty(text)) return;
    const std::optional<QuantityKind> kind = quantity_kind_of(text);
    if (!kind) return;  // not a quantity ("../topology.json"): the model's parameter read decides
    auto [it, added] = found.try_emplace(input_key_of(key, text));
    UncertainInput& in = it->second;
    ++in.places;
    if (!added) return;
    if (const ParseResult r = parse_uncertain(text, *kind, in.u); !r.ok) throw InputError(at.file, at.pointer, r.error);
    in.name = key;
    in.text = text;
    in.label = at.owner + "." + key;
    in.file = at.file;
    in.pointer = at.pointer;
  };
  Scenario sc = scenario;
  walk_scenario(
      sc, [&](const std::string& key, Json& value, const Place& at) { record(key, value.get<std::string>(), at); },
      [&](const std::string& key, const std::string& text, const Place& at, Json&) { record(key, text, at); });
  std::vector<UncertainInput> out;
  for (auto& [k, in] : found) out.push_back(std::move(in));
  return out;
}

Scenario with_values(const Scenario& scenario, const std::vector<UncertainInput>& inputs, const std::vector<i64>& values) {
  std::map<std::string, std::string> text_of;  // key -> the value's text
  for (std::size_t k = 0; k < inputs.size(); ++k)
    text_of[input_key_of(inputs[k].name, inputs[k].text)] = quantity_text(inputs[k].u.kind, values.at(k));
  Scenario sc = scenario;
  walk_scenario(
      sc,
      [&](const std::string& key, Json& value, const Place&) {
        const auto it = text_of.find(input_key_of(key, value.get<std::string>()));
        if (it != text_of.end()) value = it->second;
      },
      [&](const std::string& key, const std::string& text, const Place&, Json& device) {
        // The device's own key overrides its preset's value, as the topology loader merges them.
        const auto it = text_of.find(input_key_of(key, text));
        if (it != text_of.end()) device[key] = it->second;
      });
  return sc;
}

double sample_uniform(std::uint64_t seed, std::size_t i, const UncertainInput& in) {
  Rng rng(seed, fmt::format("uncertainty/{}={}/{}", in.name, in.text, i));
  // 53 random bits, centred in their cell: never 0 or 1.
  return (static_cast<double>(rng.next() >> 11) + 0.5) * 0x1.0p-53;
}

std::vector<i64> sample_values(std::uint64_t seed, std::size_t i, const std::vector<UncertainInput>& inputs) {
  std::vector<i64> out;
  for (const UncertainInput& in : inputs) out.push_back(in.u.value_at(sample_uniform(seed, i, in)));
  return out;
}

std::vector<i64> nominal_values(const std::vector<UncertainInput>& inputs) {
  std::vector<i64> out;
  for (const UncertainInput& in : inputs) out.push_back(in.u.nominal);
  return out;
}

}  // namespace iowall
