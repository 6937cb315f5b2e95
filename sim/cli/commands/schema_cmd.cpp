// `iowall schema topology|scenario`: the JSON Schema generated from the models; the
// scenario's "workload" is described from the parameters the workload reads (what each
// target does), so the schema is complete for editors and people.
#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/config/scenario.hpp"
#include "sim/config/schema.hpp"
#include "sim/run/io_workload.hpp"

namespace iowall {
namespace {

Json full_scenario_schema() {
  Json s = scenario_schema();
  const Params d = Params::describe();
  read_workload(d);
  Json props = Json::object();
  for (const ParamInfo& p : d.declared()) props[p.name] = param_schema(p);
  Json& w = s["properties"]["workload"];
  w["properties"] = props;
  w["additionalProperties"] = false;
  return s;
}

void setup_schema(CLI::App& root, CliState&) {
  auto which = std::make_shared<std::string>();
  CLI::App* cmd = root.add_subcommand("schema", "print the JSON Schema of topologies or scenarios");
  cmd->add_option("kind", *which, "topology or scenario")->required()->check(CLI::IsMember({"topology", "scenario"}));
  cmd->callback([which] { fmt::print("{}\n", (*which == "topology" ? topology_schema() : full_scenario_schema()).dump(2)); });
}

}  // namespace

IOWALL_REGISTER_COMMAND(80, setup_schema);

}  // namespace iowall
