// `iowall schema topology|scenario`: the JSON Schema generated from the models.
#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/config/schema.hpp"

namespace iowall {
namespace {

void setup(CLI::App& root, CliState&) {
  auto which = std::make_shared<std::string>();
  CLI::App* cmd = root.add_subcommand("schema", "print the JSON Schema of topologies or scenarios");
  cmd->add_option("kind", *which, "topology or scenario")->required()->check(CLI::IsMember({"topology", "scenario"}));
  cmd->callback([which] { fmt::print("{}\n", (*which == "topology" ? topology_schema() : scenario_schema()).dump(2)); });
}

}  // namespace

IOWALL_REGISTER_COMMAND(80, setup);

}  // namespace iowall
