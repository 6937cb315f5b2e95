// `iowall cxl kvcache|flit`: a KV-cache offload study of a CXL memory tier against
// NVMe SSDs (both simulated by discrete events), and the flit arithmetic of a CXL
// link (what each CXL.mem message costs on the wire).
#include <sstream>

#include <fmt/format.h>

#include "models/cxl/flit_packer.hpp"
#include "models/cxl/kv_cache_study.hpp"
#include "sim/cli/command.hpp"
#include "sim/config/json_limits.hpp"
#include "sim/config/registry.hpp"
#include "sim/cli/option_values.hpp"
#include "sim/cli/output.hpp"
#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"

namespace iowall {
namespace {

using cxl::StudyOptions;

// The link an option set describes; InputError naming the option at fault.
cxl::LinkConfig link_options(int gen, int lanes, int flit) {
  cxl::LinkConfig c;
  c.gen = gen;
  c.lanes = lanes;
  c.flit = flit;
  if (const cxl::LinkProblem bad = cxl::check(c); !bad.key.empty()) throw InputError("", "--" + bad.key, bad.message);
  return c;
}

double fraction_option(double v, const char* option) {
  if (v < 0 || v > 1) throw InputError("", option, fmt::format("{} is not a fraction between 0 and 1", v));
  return v;
}

struct KvArgs {
  cxl::TierSetup setup;
  std::string attach = "switch", requester = "cpu", sizes = "64 B,256 B,1 KiB,4 KiB,16 KiB,64 KiB,256 KiB,1 MiB,4 MiB";
  std::string interleave = "4 KiB", topology, tiers = "both";
  i64 qd = 4, blocks = 0;
  double shared = 0, writes = 0;
  std::uint64_t seed = 1;
  OutputOptions out;
};

void run_kvcache(const KvArgs& a) {
  link_options(a.setup.gen, a.setup.lanes, a.setup.flit);
  StudyOptions o;
  o.setup = a.setup;
  o.setup.direct = a.attach == "direct";
  o.setup.gpu_requesters = a.requester == "gpu";
  o.qd = a.qd;
  o.blocks_per_requester = a.blocks;
  o.load.interleave = positive_bytes_option(a.interleave, "--interleave");
  o.load.shared_fraction = fraction_option(a.shared, "--shared-fraction");
  o.load.write_fraction = fraction_option(a.writes, "--write-fraction");
  o.nvme = a.tiers == "both";
  o.seed = a.seed;
  std::stringstream ss(a.sizes);
  for (std::string item; std::getline(ss, item, ',');) o.blocks.push_back(positive_bytes_option(item, "--sizes"));
  if (o.blocks.empty()) throw InputError("", "--sizes", "no block size given (expected e.g. \"4 KiB,64 KiB\")");
  if (const ModelEntry* ssd = ModelRegistry::instance().find("device", "nvme_ssd");
      ssd && !ssd->presets.count(o.setup.ssd_preset)) {
    std::string known;
    for (const auto& [name, preset] : ssd->presets) known += (known.empty() ? "" : ", ") + name;
    throw InputError("", "--ssd-preset", fmt::format("\"{}\" is not an nvme_ssd preset (known: {})",
                                                     quote_text(o.setup.ssd_preset, 40), known));
  }
  if (a.topology.empty()) {
    o.cxl_doc = cxl::cxl_topology(o.setup);
    o.cxl_file = "iowall cxl kvcache";
  } else {
    const JsonDocument d = load_json(a.topology);
    o.cxl_doc = d.json;
    o.cxl_file = d.name;
  }
  if (o.setup.direct) o.setup.requesters = 1;
  const Json r = cxl::run_study(o);
  emit(a.out, [&] { return cxl::study_text(r); }, r);
}

struct FlitArgs {
  int gen = 5, lanes = 16, flit = 68;
  OutputOptions out;
};

void run_flit(const FlitArgs& a) {
  const cxl::LinkConfig c = link_options(a.gen, a.lanes, a.flit);
  const cxl::FlitLayout l = c.layout();
  const std::pair<const char*, cxl::Message> messages[] = {{"M2S Req (MemRd)", cxl::read_request(c.bits)},
                                                           {"S2M DRS (MemData, 64 B)", cxl::read_data(c.bits)},
                                                           {"M2S RwD (MemWr, 64 B)", cxl::write_request(c.bits)},
                                                           {"S2M NDR (Cmp)", cxl::write_completion(c.bits)}};
  Json rows = Json::array();
  std::string text = fmt::format("{}: {} B flits, {} slots, {} header bits in slot 0; line rate {:.2f} GB/s per direction\n",
                                 c.describe(), l.flit_bytes, l.slots, l.hslot_bits, c.bandwidth().GBps_value());
  for (const auto& [name, m] : messages) {
    std::vector<std::uint32_t> done;
    cxl::FlitPacker alone(l);
    alone.push(m, 0);
    i64 lone_flits = 0;
    while (!alone.empty()) lone_flits += (alone.next_flit(done), 1);
    const double wire = cxl::wire_bytes_per_message(l, m);
    rows.push_back({{"message", name}, {"header_bits", m.header_bits}, {"data_slots", m.data_slots},
                    {"flits_alone", lone_flits}, {"wire_bytes_streaming", wire}});
    text += fmt::format("  {:<24} alone {} flit(s) = {:>4} B; streaming {:.2f} B each\n", name, lone_flits,
                        lone_flits * l.flit_bytes, wire);
  }
  const Bandwidth ceiling = cxl::read_payload_ceiling(c);
  text += fmt::format("read payload ceiling (64 B per DRS, link kept busy): {:.2f} GB/s ({:.1f}% of line rate)\n",
                      ceiling.GBps_value(), 100.0 * ceiling.GBps_value() / c.bandwidth().GBps_value());
  emit(a.out, [&] { return text; },
       {{"link", c.describe()}, {"line_rate_GBps", c.bandwidth().GBps_value()}, {"messages", rows},
        {"read_payload_ceiling_GBps", ceiling.GBps_value()}});
}

void setup(CLI::App& root, CliState&) {
  CLI::App* cmd = root.add_subcommand("cxl", "CXL memory tier: KV-cache offload study, flit arithmetic");
  cmd->require_subcommand(1);

  auto ka = std::make_shared<KvArgs>();
  CLI::App* kv = cmd->add_subcommand("kvcache", "KV-cache blocks from a pooled CXL memory tier vs NVMe SSDs");
  kv->add_option("--requesters", ka->setup.requesters, "hosts/GPUs fetching blocks (each one CXL root port, or one GPU)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{64}));
  kv->add_option("--cxl-devices", ka->setup.cxl_devices, "Type-3 devices behind the switch")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{64}));
  kv->add_option("--gen", ka->setup.gen, "CXL PHY generation: 5 or 6");
  kv->add_option("--lanes", ka->setup.lanes, "CXL link width: 1, 2, 4, 8 or 16");
  kv->add_option("--flit", ka->setup.flit, "flit size: 68 (CXL 2.0) or 256 (CXL 3.x)");
  kv->add_option("--attach", ka->attach, "switch (pooled) or direct (one requester, one device)")
      ->check(CLI::IsMember({"switch", "direct"}));
  kv->add_option("--requester", ka->requester, "cpu (a root port, 512 loads in flight) or gpu (4096)")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  kv->add_option("--device-preset", ka->setup.device_preset, "cxl_type3 preset")->check(CLI::IsMember({"cz120", "cmm_d"}));
  kv->add_option("--ssds", ka->setup.ssds, "NVMe SSDs of the NVMe tier")->check(CLI::Range(std::int64_t{1}, std::int64_t{64}));
  kv->add_option("--ssd-preset", ka->setup.ssd_preset, "nvme_ssd preset of the NVMe tier");
  kv->add_option("--sizes", ka->sizes, "comma-separated block sizes to sweep");
  kv->add_option("--qd", ka->qd, "blocks each requester keeps in flight")->check(CLI::Range(std::int64_t{1}, std::int64_t{1024}));
  kv->add_option("--blocks", ka->blocks, "blocks per requester at each size (0: enough for steady state)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 20));
  kv->add_option("--interleave", ka->interleave, "interleave granularity across CXL devices");
  kv->add_option("--shared-fraction", ka->shared, "fraction of lines another requester caches (back-invalidate snoop)")->check(finite_number())->check(CLI::Range(0.0, 1.0));
  kv->add_option("--write-fraction", ka->writes, "fraction of blocks written back to the CXL tier instead of read")->check(finite_number())->check(CLI::Range(0.0, 1.0));
  kv->add_option("--topology", ka->topology, "CXL tier from a topology file (cxl_host, cxl_switch, cxl_type3, cxl links)");
  kv->add_option("--tiers", ka->tiers, "both, or cxl alone")->check(CLI::IsMember({"both", "cxl"}));
  add_seed_option(*kv, ka->seed, "random seed");
  ka->out.add_to(*kv, false);
  kv->callback([ka] { run_kvcache(*ka); });

  auto fa = std::make_shared<FlitArgs>();
  CLI::App* flit = cmd->add_subcommand("flit", "what each CXL.mem message costs in flits, and the read ceiling");
  flit->add_option("--gen", fa->gen, "PHY generation: 5 or 6");
  flit->add_option("--lanes", fa->lanes, "link width: 1, 2, 4, 8 or 16");
  flit->add_option("--flit", fa->flit, "flit size: 68 or 256");
  fa->out.add_to(*flit, false);
  flit->callback([fa] { run_flit(*fa); });
}

}  // namespace

IOWALL_REGISTER_COMMAND(41, setup);

}  // namespace iowall
