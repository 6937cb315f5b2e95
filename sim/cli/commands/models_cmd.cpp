// `iowall models [NAME]`: every registered model with its parameters (unit, default,
// description, source), ports, statistics and presets.
#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/config/json_limits.hpp"
#include "sim/cli/output.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/error.hpp"

namespace iowall {
namespace {

Json model_json(const ModelEntry& e) {
  const ModelDoc doc = e.describe();
  Json params = Json::array();
  for (const ParamInfo& p : doc.params) {
    Json j = {{"name", p.name}, {"type", param_type_name(p.type)}, {"default", p.default_text},
              {"description", p.description}, {"source", p.source}};
    if (!p.choices.empty()) j["choices"] = p.choices;
    params.push_back(j);
  }
  Json ports = Json::array(), stats = Json::array(), presets = Json::array();
  for (const auto& p : doc.ports) ports.push_back({{"name", p.name}, {"role", p.role}, {"description", p.description}});
  for (const auto& s : doc.stats) stats.push_back({{"name", s.name}, {"unit", s.unit}, {"description", s.description}});
  for (const auto& [name, p] : e.presets)
    presets.push_back({{"name", name}, {"description", p.description}, {"source", p.source}, {"values", p.values}});
  return {{"domain", e.domain}, {"name", e.name}, {"description", e.description}, {"params", params},
          {"ports", ports},     {"stats", stats}, {"presets", presets}};
}

std::string model_text(const Json& m, bool detail) {
  std::string out = fmt::format("{:<8} {:<16} {}\n", m["domain"].get<std::string>(), m["name"].get<std::string>(),
                                m["description"].get<std::string>());
  if (!detail) return out;
  for (const auto& p : m["params"])
    out += fmt::format("  param  {:<22} {:<10} default {:<12} {}  [source: {}]\n", p["name"].get<std::string>(),
                       p["type"].get<std::string>(), p["default"].get<std::string>().empty() ? "(required)" : p["default"].get<std::string>(),
                       p["description"].get<std::string>(), p["source"].get<std::string>());
  for (const auto& p : m["ports"])
    out += fmt::format("  port   {:<22} {:<16} {}\n", p["name"].get<std::string>(), p["role"].get<std::string>(),
                       p["description"].get<std::string>());
  for (const auto& s : m["stats"])
    out += fmt::format("  stat   {:<22} {:<10} {}\n", s["name"].get<std::string>(), s["unit"].get<std::string>(),
                       s["description"].get<std::string>());
  for (const auto& p : m["presets"])
    out += fmt::format("  preset {:<22} {}  [source: {}]\n", p["name"].get<std::string>(),
                       p["description"].get<std::string>(), p["source"].get<std::string>());
  return out;
}

void setup_models(CLI::App& root, CliState&) {
  auto name = std::make_shared<std::string>();
  auto out = std::make_shared<OutputOptions>();
  CLI::App* cmd = root.add_subcommand("models", "list the models (devices, links, paths) and what they take");
  cmd->add_option("name", *name, "show one model in full")->check(CLI::Validator(
      [](std::string& n) { return n.empty() ? std::string("an empty name (`iowall models` lists every model)") : std::string(); }, "NAME", "name"));
  out->add_to(*cmd, false);
  cmd->callback([name, out] {
    Json list = Json::array();
    for (const ModelEntry* e : ModelRegistry::instance().all())
      if (name->empty() || e->name == *name) list.push_back(model_json(*e));
    if (list.empty())
      throw InputError("", "models", fmt::format("unknown model \"{}\" (run `iowall models` for the list)", quote_text(*name, 60)));
    emit(*out,
         [&] {
           std::string s;
           for (const auto& m : list) s += model_text(m, !name->empty());
           return s;
         },
         list);
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(20, setup_models);

}  // namespace iowall
