#include "sim/config/scenario.hpp"

#include <set>

#include "sim/config/json_limits.hpp"

#include <fmt/format.h>

#include "sim/config/registry.hpp"
#include "sim/config/schema.hpp"
#include "sim/config/topology_derive.hpp"

namespace iowall {

Json scenario_schema() {
  auto& reg = ModelRegistry::instance();
  Json path_item = {{"oneOf",
                     {{{"type", "string"}, {"enum", reg.names("path")}},
                      {{"type", "object"},
                       {"required", {"name"}},
                       {"properties",
                        {{"name", {{"type", "string"}, {"enum", reg.names("path")}}},
                         {"label", {{"type", "string"}, {"minLength", 1}}}}}}}}};
  return {{"$schema", "http://json-schema.org/draft-07/schema#"},
          {"title", "iowall scenario"},
          {"type", "object"},
          {"required", {"name", "topology", "workload"}},
          {"additionalProperties", false},
          {"properties",
           {{"$schema", {{"type", "string"}, {"description", "the URL of a JSON Schema, for editors; ignored"}}},
            {"name", {{"type", "string"}, {"description", "the scenario's name, echoed in results"}}},
            {"description", {{"type", "string"}, {"description", "what the scenario is about, for people"}}},
            {"claims", {{"type", "array"}, {"description", "published claims this scenario checks, with sources"}}},
            {"topology",
             {{"type", {"string", "object"}},
              {"description",
               "the machine: a topology file (relative to this file, or a shipped one by name: iowall topo list), "
               "the topology inline, or {\"base\": FILE, \"derive\": {edits}}"}}},
            {"workload",
             {{"type", "object"},
              {"description", "what each target (GPU) does: size, io_size, threads and qd are per target "
                              "(iowall schema scenario lists every key with its unit and default)"}}},
            {"paths",
             {{"type", "array"},
              {"minItems", 1},
              {"items", path_item},
              {"description", "the data paths to simulate, each a whole run of the workload (default [\"gpu_direct\"]): "
                              "a name, or {\"name\", \"label\", path parameters}"}}},
            {"fidelity",
             {{"type", "string"},
              {"enum", {"chunk", "tlp"}},
              {"description", "chunk: one event per transfer chunk (default); tlp: one per PCIe packet (slow, exact)"}}},
            {"seed", {{"type", "integer"}, {"minimum", 0}, {"description", "random seed (default 1); the same seed gives the same bytes"}}},
            {"sweep",
             {{"type", "object"},
              {"description", "axes: a JSON pointer into this scenario -> the values it takes (iowall sweep)"},
              {"additionalProperties", {{"type", "array"}, {"minItems", 1}}}}}}}};
}

Scenario scenario_from_json(Json doc, const std::string& file, const std::string& directory) {
  validate_json(scenario_schema(), doc, file, "");
  Scenario s;
  s.file = file;
  s.name = doc.at("name");
  s.description = doc.value("description", "");
  s.fidelity = doc.value("fidelity", "chunk");
  if (doc.contains("seed")) {
    // The schema's "integer" (minimum 0) also admits 1e30, a double; an integer fits.
    const Json& seed = doc["seed"];
    if (!seed.is_number_integer() || (!seed.is_number_unsigned() && seed.get<std::int64_t>() < 0))
      throw InputError(file, "/seed", fmt::format("{} is not a whole number from 0 to 2^64-1", quote_json(seed)));
    s.seed = seed.get<std::uint64_t>();
  }
  const Json& topo = doc.at("topology");
  // A topology file named at `pointer`: a file that cannot be found or opened is named where
  // the scenario refers to it; an error inside it names its own file.
  auto load_topology = [&](const std::string& name, const std::string& pointer) {
    if (name.empty()) throw InputError(file, pointer, "an empty file name (expected a topology file, or the topology inline)");
    try {
      return load_json(name, directory);
    } catch (const InputError& e) {
      if (!e.pointer().empty() || e.where() != name || e.message().find("line") != std::string::npos ||
          e.message().find("JSON") != std::string::npos)
        throw;
      throw InputError(file, pointer, fmt::format("{}: {}", quote_text(name, 80), e.message()));
    }
  };
  if (topo.is_string()) {
    JsonDocument t = load_topology(topo.get<std::string>(), "/topology");
    s.topology = std::move(t.json);
    s.topology_file = t.name;
  } else if (topo.contains("base")) {
    // {"base": FILE, "derive": {edits}}: a variant of a topology file (sim/config/topology_derive.hpp).
    for (const auto& [k, v] : topo.items())
      if (k != "base" && k != "derive")
        throw InputError(file, "/topology/" + quote_text(k, 60),
                         "a derived topology has \"base\" (a topology file) and \"derive\" (the edits) only");
    if (!topo["base"].is_string())
      throw InputError(file, "/topology/base", fmt::format("{} is not a topology file name", quote_json(topo["base"])));
    const JsonDocument t = load_topology(topo["base"].get<std::string>(), "/topology/base");
    s.topology = derive_topology(t.json, topo.value("derive", Json::object()), t.name, [&](const std::string& key) {
      return std::pair<std::string, std::string>{file, key.empty() ? "/topology/derive" : "/topology/derive/" + key};
    });
    s.topology_file = fmt::format("{} (derived in {})", t.name, file);
  } else {
    s.topology = topo;
    s.topology_file = file;
    s.topology_pointer = "/topology";
  }
  s.workload = doc.at("workload");
  const Json paths = doc.value("paths", Json::array({"gpu_direct"}));
  // Each path is a whole simulation of the workload; a thousand is far past any study.
  constexpr std::size_t kMaxPaths = 1024;
  if (paths.size() > kMaxPaths)
    throw InputError(file, "/paths", fmt::format("{} data paths are more than the {} one scenario may run", paths.size(), kMaxPaths));
  std::set<std::string> labels;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    PathChoice c;
    c.pointer = fmt::format("/paths/{}", i);
    if (paths[i].is_string()) {
      c.name = paths[i];
      c.params = Json::object();
    } else {
      c.name = paths[i].at("name");
      c.params = paths[i];
      c.params.erase("name");
      c.label = paths[i].value("label", "");
      c.params.erase("label");
    }
    if (c.label.empty()) c.label = c.name;
    if (!labels.insert(c.label).second)
      throw InputError(file, c.pointer,
                       fmt::format("two paths are both called \"{}\": give one a \"label\"", quote_text(c.label, 60)));
    s.paths.push_back(std::move(c));
  }
  if (doc.contains("sweep")) {
    for (const auto& [pointer, values] : doc["sweep"].items()) {
      try {
        const Json::json_pointer ptr(pointer);
        if (!doc.contains(ptr))
          throw InputError(file, "/sweep/" + pointer, fmt::format("{} does not exist in the scenario", pointer));
      } catch (const Json::exception&) {
        throw InputError(file, "/sweep", fmt::format("\"{}\" is not a JSON pointer", pointer));
      }
      s.sweep.push_back(SweepAxis{pointer, values.get<std::vector<Json>>()});
    }
  }
  s.doc = std::move(doc);
  return s;
}

namespace {
Scenario scenario_from_document(JsonDocument d, const std::vector<std::string>& overrides) {
  for (const auto& o : overrides) apply_override(d.json, o, d.name);
  return scenario_from_json(std::move(d.json), d.name, d.directory);
}
}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  return scenario_from_document(load_json(path), overrides);
}

Scenario parse_scenario_text(const std::string& text, const std::string& name,
                             const std::vector<std::string>& overrides, const std::string& directory) {
  JsonDocument d = parse_json_text(text, name);
  d.directory = directory;
  return scenario_from_document(std::move(d), overrides);
}

}  // namespace iowall
