// `iowall cxl kvcache|flit`: the CXL studies of models/cxl (cxl_kvcache, cxl_flit), run
// by name: a KV-cache offload study of a CXL memory tier against NVMe SSDs (both
// simulated by discrete events; the NVMe tier runs as a scenario), and the flit
// arithmetic of a CXL link. Their options are the studies' parameters.
#include "sim/cli/command.hpp"
#include "sim/cli/option_values.hpp"
#include "sim/cli/study_options.hpp"
#include "sim/run/study_runner.hpp"

namespace iowall {
namespace {

void setup_cxl(CLI::App& root, CliState&) {
  CLI::App* cmd = root.add_subcommand("cxl", "CXL memory tier: KV-cache offload study, flit arithmetic");
  cmd->require_subcommand(1);

  auto ka = std::make_shared<StudyOptions>("cxl_kvcache", "iowall cxl kvcache");
  CLI::App* kv = cmd->add_subcommand("kvcache", "KV-cache blocks from a pooled CXL memory tier vs NVMe SSDs");
  ka->integer(*kv, "--requesters", "hosts/GPUs fetching blocks (each one CXL root port, or one GPU)");
  ka->integer(*kv, "--cxl-devices", "Type-3 devices behind the switch");
  ka->integer(*kv, "--gen", "CXL PHY generation: 5 or 6");
  ka->integer(*kv, "--lanes", "CXL link width: 1, 2, 4, 8 or 16");
  ka->integer(*kv, "--flit", "flit size: 68 (CXL 2.0) or 256 (CXL 3.x)");
  ka->text(*kv, "--attach", "switch (pooled) or direct (one requester, one device)");
  ka->text(*kv, "--requester", "cpu (a root port, 512 loads in flight) or gpu (4096)");
  ka->text(*kv, "--device-preset", "cxl_type3 preset");
  ka->integer(*kv, "--ssds", "NVMe SSDs of the NVMe tier");
  ka->text(*kv, "--ssd-preset", "nvme_ssd preset of the NVMe tier");
  ka->text(*kv, "--sizes", "comma-separated block sizes to sweep");
  ka->integer(*kv, "--qd", "blocks each requester keeps in flight");
  ka->integer(*kv, "--blocks", "blocks per requester at each size (0: enough for steady state)");
  ka->text(*kv, "--interleave", "interleave granularity across CXL devices");
  ka->number(*kv, "--shared-fraction", "fraction of lines another requester caches (back-invalidate snoop)")
      ->check(finite_number());
  ka->number(*kv, "--write-fraction", "fraction of blocks written back to the CXL tier instead of read")
      ->check(finite_number());
  ka->text(*kv, "--topology", "CXL tier from a topology file (cxl_host, cxl_switch, cxl_type3, cxl links)");
  ka->text(*kv, "--tiers", "both, or cxl alone");
  ka->seed(*kv, "random seed");
  ka->outputs(*kv);
  kv->callback([ka] { ka->run(&scenario_runner()); });

  auto fa = std::make_shared<StudyOptions>("cxl_flit", "iowall cxl flit");
  CLI::App* flit = cmd->add_subcommand("flit", "what each CXL.mem message costs in flits, and the read ceiling");
  fa->integer(*flit, "--gen", "PHY generation: 5 or 6");
  fa->integer(*flit, "--lanes", "link width: 1, 2, 4, 8 or 16");
  fa->integer(*flit, "--flit", "flit size: 68 or 256");
  fa->outputs(*flit);
  flit->callback([fa] { fa->run(); });
}

}  // namespace

IOWALL_REGISTER_COMMAND(41, setup_cxl);

}  // namespace iowall
