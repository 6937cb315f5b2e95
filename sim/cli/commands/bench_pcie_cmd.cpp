// `iowall bench pcie`: simulation speed at chunk fidelity on the DGX-H100-class node,
// 8 GPUs each restoring from its own Gen5 NVMe over GDS (8 concurrent x16 streams,
// about 100 GB/s). Reports simulated bytes and simulated seconds per wall second.
#include <chrono>

#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/run/runner.hpp"

namespace iowall {
namespace {

void setup(CLI::App& root, CliState&) {
  CLI::App* bench = nullptr;
  for (CLI::App* sub : root.get_subcommands([](CLI::App* s) { return s->get_name() == "bench"; })) bench = sub;
  if (!bench) return;
  auto size = std::make_shared<std::string>("4 GiB");
  auto io = std::make_shared<std::string>("1 MiB");
  auto media = std::make_shared<std::string>();
  auto out = std::make_shared<OutputOptions>();
  CLI::App* cmd = bench->add_subcommand("pcie", "chunk-fidelity speed: 8 GPUs reading 8 NVMe on a DGX-H100-class node");
  cmd->add_option("--size", *size, "bytes each GPU reads");
  cmd->add_option("--io-size", *io, "I/O size");
  cmd->add_option("--media", *media, "override the SSDs' media model: lumped (latency + bandwidth) or nand (dies, "
                                     "channels, pages); default: as the topology says")
      ->check(CLI::IsMember({"lumped", "nand"}));
  out->add_to(*cmd, false);
  cmd->callback([size, io, media, out] {
    Json topology = load_json("topologies/dgx-h100.json").json;
    for (Json& d : topology["devices"])
      if (d["model"] == "nvme_ssd" && !media->empty()) d["media"] = *media;
    const Json doc = {{"name", "bench-pcie"},
                      {"topology", topology},
                      {"workload", {{"kind", "sequential_read"}, {"size", *size}, {"io_size", *io}, {"threads", 8},
                                    {"qd", 2}, {"storage", "paired"}}},
                      {"paths", {"gpu_direct"}}};
    const Scenario sc = scenario_from_json(doc, "bench-pcie", "");
    const auto t0 = std::chrono::steady_clock::now();
    const Json r = run_scenario(sc);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Json& m = r["metrics"]["gpu_direct"];
    const double sim_s = m["last_done_s"].get<double>();
    const double bytes = m["bytes"].get<double>();
    const Json j = {{"benchmark", "pcie_chunk_dgx_h100"},
                    {"media", media->empty() ? "as the topology" : *media},
                    {"simulated_GBps", m["throughput_GBps"]},
                    {"simulated_s", sim_s},
                    {"wall_s", wall},
                    {"sim_s_per_wall_s", sim_s / wall},
                    {"simulated_GB_per_wall_s", bytes / wall / 1e9},
                    {"events", m["events"]},
                    {"events_per_wall_s", m["events"].get<double>() / wall}};
    emit(*out,
         [&] {
           return fmt::format("DGX-H100 8 GPUs x GDS: {:.1f} GB/s simulated for {:.3f} s in {:.3f} s of wall time: "
                              "{:.2f}x real time ({:.1f} simulated GB per wall second, {:.2f} M events/s)\n",
                              m["throughput_GBps"].get<double>(), sim_s, wall, sim_s / wall, bytes / wall / 1e9,
                              m["events"].get<double>() / wall / 1e6);
         },
         j);
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(91, setup);

}  // namespace iowall
