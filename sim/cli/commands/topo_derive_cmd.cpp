// `iowall topo derive BASE [--pcie-gen G] [--ssds-per-switch N] [--move gpuX=socketY]...
// [--nic-rails N] [--drive PRESET] [-o FILE]`: a what-if variant of a topology in one line
// (sim/config/topology_derive.hpp), checked to load before it is written.
#include <map>

#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/cli/output_path.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/topology.hpp"
#include "sim/config/topology_derive.hpp"
#include "sim/config/topology_text.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"

namespace iowall {
namespace {

struct DeriveArgs {
  std::string base, output, pcie_gen, ssds_per_switch, nic_rails, drive;
  std::vector<std::string> moves;
};

// A number as JSON when the text is one (so "-1" reaches the edit as -1), else the text.
Json value_of(const std::string& text) {
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  return text;
}

void setup_topo_derive(CLI::App& root, CliState&) {
  CLI::App* topo = root.get_subcommand("topo");
  auto a = std::make_shared<DeriveArgs>();
  CLI::App* cmd = topo->add_subcommand("derive", "a what-if variant of a topology: PCIe generation, drives per switch, "
                                                 "a GPU on another socket, NICs per GPU, another drive");
  cmd->add_option("base", a->base, "the topology to start from (a file, or the name of an embedded one)")->required();
  cmd->add_option("--pcie-gen", a->pcie_gen, "every PCIe link at this generation (1-6); switches take that generation's preset")
      ->type_name("G");
  cmd->add_option("--ssds-per-switch", a->ssds_per_switch,
                  "this many nvme_ssd under each PCIe switch (copies added, or the last removed)")
      ->type_name("N");
  cmd->add_option("--move", a->moves, "the GPU onto a root port of that socket (socketN or a cpu_socket id); repeatable")
      ->type_name("GPU=SOCKET")
      ->allow_extra_args(false);
  cmd->add_option("--nic-rails", a->nic_rails, "this many NICs per GPU, beside each GPU (copies added, or the last removed)")
      ->type_name("N");
  cmd->add_option("--drive", a->drive, "every nvme_ssd becomes this preset (iowall models nvme_ssd)")->type_name("PRESET");
  cmd->add_option("-o,--output", a->output, "write the topology here (atomically) instead of standard output")
      ->check(writable_output());
  cmd->callback([a, cmd] {
    Json spec = Json::object();
    if (cmd->count("--pcie-gen")) spec["pcie_gen"] = value_of(a->pcie_gen);
    if (cmd->count("--ssds-per-switch")) spec["ssds_per_switch"] = value_of(a->ssds_per_switch);
    if (cmd->count("--nic-rails")) spec["nic_rails"] = value_of(a->nic_rails);
    if (cmd->count("--drive")) spec["drive"] = a->drive;
    for (const std::string& m : a->moves) {
      const auto eq = m.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == m.size())
        throw InputError("--move", "", fmt::format("\"{}\" is not GPU=SOCKET (e.g. gpu3=socket1)", m));
      spec["move"][m.substr(0, eq)] = m.substr(eq + 1);
    }
    const JsonDocument base = load_json(a->base);
    static const std::map<std::string, std::string> options = {{"pcie_gen", "--pcie-gen"},
                                                               {"ssds_per_switch", "--ssds-per-switch"},
                                                               {"move", "--move"},
                                                               {"nic_rails", "--nic-rails"},
                                                               {"drive", "--drive"}};
    const Json t = derive_topology(base.json, spec, base.name, [&](const std::string& key) {
      const auto it = options.find(key);
      return std::pair<std::string, std::string>{it == options.end() ? base.name : it->second, ""};
    });
    {
      SimContext ctx(1);
      const Topology check(ctx, t, fmt::format("{} (derived)", base.name));
    }
    const std::string text = topology_text(t);
    if (a->output.empty())
      fmt::print("{}", text);
    else
      write_file_atomically(a->output, text);
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(32, setup_topo_derive);

}  // namespace iowall
