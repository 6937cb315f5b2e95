// `iowall topo discover [-o FILE] [--sysfs-root DIR] [--proc-root DIR] [--nvidia-smi-dir DIR]`:
// the topology of the machine it runs on (or of a recording of one), checked to load before
// it is written: the topology on standard output, or in FILE with a summary and what is
// left to set on standard output.
#include <fmt/format.h>

#include "discover/discover.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/output_path.hpp"
#include "sim/config/topology.hpp"
#include "sim/config/topology_text.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"

namespace iowall {
namespace {

struct DiscoverArgs {
  discover::DiscoverOptions options;
  std::string output;
  bool quiet = false;
};

void setup_topo_discover(CLI::App& root, CliState&) {
  CLI::App* topo = root.get_subcommand("topo");
  auto a = std::make_shared<DiscoverArgs>();
  CLI::App* cmd = topo->add_subcommand(
      "discover", "the topology of this machine (sysfs, /proc, nvidia-smi) as a topology JSON that iowall run simulates");
  cmd->add_option("-o,--output", a->output, "write the topology here (atomically) instead of standard output")
      ->check(writable_output());
  cmd->add_option("--sysfs-root", a->options.sysfs_root,
                  "read a recording (scripts/capture-sysfs.sh OUT: OUT) or a folder laid out as /sys, not this machine")
      ->type_name("DIR");
  cmd->add_option("--proc-root", a->options.proc_root, "a folder laid out as /proc (default: /proc, or the recording's)")
      ->type_name("DIR");
  cmd->add_option("--nvidia-smi-dir", a->options.nvidia_smi_dir,
                  "recorded nvidia-smi outputs, q.txt (nvidia-smi -q) and topo-m.txt (nvidia-smi topo -m), instead of "
                  "running nvidia-smi")
      ->type_name("DIR");
  cmd->add_flag("-q,--quiet", a->quiet, "with -o, print nothing");
  cmd->callback([a] {
    const discover::Discovered d = discover::discover_topology(a->options);
    try {
      SimContext ctx(1);
      const Topology check(ctx, d.topology, "discovered topology");
    } catch (const InputError& e) {
      // What discovery writes must load; if it does not, the fault is here, not in the input.
      throw RunError(fmt::format("the discovered topology does not load ({}): please report it", e.what()));
    }
    const std::string text = topology_text(d.topology);
    if (a->output.empty()) {
      fmt::print("{}", text);
      return;
    }
    write_file_atomically(a->output, text);
    if (a->quiet) return;
    fmt::print("{}\nwritten to {}\n", d.topology["description"].get<std::string>(), a->output);
    if (!d.notes.empty()) fmt::print("\nto set ({}):\n", d.notes.size());
    for (const std::string& n : d.notes) fmt::print("  {}\n", n);
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(31, setup_topo_discover);

}  // namespace iowall
