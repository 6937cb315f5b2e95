// `iowall bench pcie`: simulation speed at chunk fidelity on the DGX-H100-class node,
// 8 concurrent streams from the eight Gen5 NVMe drives into the eight GPUs (x16 each),
// about 100 GB/s in all. Two cases move the same bytes over the same routes:
//   fabric:  the PCIe model alone: each drive's DMA engine streams 128 KiB transfers
//            peer-to-peer into its GPU (links, switches, arbitration, wire overhead);
//   storage: the whole GDS stack: 1 MiB reads split into 128 KiB NVMe commands with
//            SQ/CQ entries, doorbells and interrupts over PCIe and the NAND media.
// Reports simulated seconds per wall second and per CPU second of this process.
#include <fmt/format.h>

#include "models/pcie/dma_stream.hpp"
#include "sim/cli/bench_clock.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/option_values.hpp"
#include "sim/cli/output.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/config/topology.hpp"
#include "sim/core/error.hpp"
#include "sim/run/runner.hpp"

namespace iowall {
namespace {

constexpr int kPairs = 8;
constexpr const char* kTopology = "topologies/dgx-h100.json";

Json case_result(const char* name, double bytes, double sim_s, double events, const Clocks& c) {
  return {{"case", name},
          {"simulated_GBps", bytes / sim_s / 1e9},
          {"simulated_s", sim_s},
          {"wall_s", c.wall},
          {"cpu_s", c.cpu},
          {"sim_s_per_wall_s", sim_s / c.wall},
          {"sim_s_per_cpu_s", sim_s / c.cpu},
          {"simulated_GB_per_wall_s", bytes / c.wall / 1e9},
          {"events", events},
          {"events_per_cpu_s", events / c.cpu}};
}

Json run_fabric(Bytes size, Bytes chunk, int in_flight) {
  double bytes = 0, sim_s = 0, events = 0;
  const Clocks c = timed([&] {
    const JsonDocument doc = load_json(kTopology);
    SimContext ctx(1);
    Topology topo(ctx, doc.json, doc.name);
    RouteMover mover(ctx);
    std::vector<Route> routes;
    routes.reserve(kPairs);
    std::vector<std::unique_ptr<DmaStream>> streams;
    for (int i = 0; i < kPairs; ++i) {
      routes.push_back(topo.route(topo.device(fmt::format("nvme{}", i), "", "nvme"),
                                  topo.device(fmt::format("gpu{}", i), "", "gpu")));
      streams.push_back(std::make_unique<DmaStream>(mover, routes.back(), chunk, size / chunk, DmaKind::write));
    }
    for (auto& s : streams) s->start(in_flight);
    ctx.run();
    for (const auto& s : streams) bytes += s->bytes_done().bytes_value();
    sim_s = ctx.now().seconds();
    events = static_cast<double>(ctx.queue().executed());
  });
  return case_result("fabric", bytes, sim_s, events, c);
}

Json run_storage(const std::string& size, const std::string& io, const std::string& media) {
  Json topology = load_json(kTopology).json;
  for (Json& d : topology["devices"])
    if (d["model"] == "nvme_ssd" && !media.empty()) d["media"] = media;
  const Json doc = {{"name", "bench-pcie"},
                    {"topology", topology},
                    {"workload", {{"kind", "sequential_read"}, {"size", size}, {"io_size", io}, {"threads", 8},
                                  {"qd", 2}, {"storage", "paired"}}},
                    {"paths", {"gpu_direct"}}};
  const Scenario sc = scenario_from_json(doc, "bench-pcie", "");
  RunResult r;
  const Clocks c = timed([&] { r = run_scenario(sc); });
  const PathMetrics& m = r.paths.at(0).metrics;
  Json out = case_result("storage", static_cast<double>(m.bytes), m.last_done_s, static_cast<double>(m.events), c);
  out["media"] = media.empty() ? "as the topology" : media;
  return out;
}

void setup_bench_pcie(CLI::App& root, CliState&) {
  CLI::App* bench = nullptr;
  for (CLI::App* sub : root.get_subcommands([](CLI::App* s) { return s->get_name() == "bench"; })) bench = sub;
  if (!bench) return;
  auto size = std::make_shared<std::string>("4 GiB");
  auto io = std::make_shared<std::string>("1 MiB");
  auto media = std::make_shared<std::string>();
  auto out = std::make_shared<OutputOptions>();
  CLI::App* cmd = bench->add_subcommand(
      "pcie", "chunk-fidelity speed: 8 NVMe -> 8 GPU streams on a DGX-H100-class node, PCIe alone and the whole stack");
  cmd->add_option("--size", *size, "bytes each GPU reads");
  cmd->add_option("--io-size", *io, "I/O size of the storage case");
  cmd->add_option("--media", *media, "override the SSDs' media model in the storage case: lumped (latency + "
                                     "bandwidth) or nand (dies, channels, pages); default: as the topology says")
      ->check(CLI::IsMember({"lumped", "nand"}));
  out->add_to(*cmd, false);
  cmd->callback([size, io, media, out] {
    Bytes per_gpu;
    if (const ParseResult r = parse_bytes(*size, per_gpu); !r.ok) throw InputError("", "--size", r.error);
    if (per_gpu < Bytes(128 * 1024)) throw InputError("", "--size", "at least 128 KiB (one transfer) per GPU");
    // 16 transfers in flight per drive: the storage case's 8 threads x QD 2.
    const Json fabric = run_fabric(per_gpu, Bytes(128 * 1024), 16);
    const Json storage = with_option_pointers([&] { return run_storage(*size, *io, *media); },
                                              {{"/workload/io_size", "--io-size"}, {"/workload/size", "--size"}});
    const Json j = {{"benchmark", "pcie_chunk_dgx_h100"}, {"cases", {fabric, storage}}};
    emit(*out,
         [&] {
           std::string text;
           for (const Json& c : j["cases"])
             text += fmt::format(
                 "{:8} {:.1f} GB/s simulated for {:.3f} s: {:.3f} s wall ({:.2f}x real time), {:.3f} s CPU "
                 "({:.2f}x real time per CPU second), {:.2f} M events\n",
                 c["case"].get<std::string>(), c["simulated_GBps"].get<double>(), c["simulated_s"].get<double>(),
                 c["wall_s"].get<double>(), c["sim_s_per_wall_s"].get<double>(), c["cpu_s"].get<double>(),
                 c["sim_s_per_cpu_s"].get<double>(), c["events"].get<double>() / 1e6);
           return text;
         },
         j);
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(91, setup_bench_pcie);

}  // namespace iowall
