// `iowall pcie dma TOPOLOGY --from A --to B`: streams DMA transfers between two
// devices of a topology at chunk fidelity and reports the throughput and the
// busiest hop: host->device copies, peer-to-peer reads, what-if link changes.
#include <fmt/format.h>

#include "models/gpu/gpu.hpp"
#include "models/host/dram.hpp"
#include "models/pcie/dma_stream.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/config/topology.hpp"
#include "sim/core/error.hpp"

namespace iowall {
namespace {

struct DmaArgs {
  std::string topology, from, to, size = "16 MiB", kind = "read";
  int count = 64, streams = 2;
  bool copy_engine = true;
  std::vector<std::string> sets;
  OutputOptions out;
};

void run(const DmaArgs& a) {
  JsonDocument doc = load_json(a.topology);
  for (const auto& s : a.sets) apply_override(doc.json, s, a.topology);
  Bytes size;
  if (const ParseResult r = parse_bytes(a.size, size); !r.ok) throw InputError("", "--size", r.error);
  if (size.n <= 0) throw InputError("", "--size", "the size must be positive");
  SimContext ctx(1);
  Topology topo(ctx, doc.json, doc.name);
  Device& from = topo.device(a.from, "", "--from");
  Device& to = topo.device(a.to, "", "--to");
  Route route = topo.route(from, to);
  // Host memory's shared access hop at either end, and the GPU's copy engine when a
  // GPU pulls or pushes host memory (cudaMemcpy).
  if (auto* d = dynamic_cast<Dram*>(&from)) route.hops.insert(route.hops.begin(), d->access_hop());
  if (auto* d = dynamic_cast<Dram*>(&to)) route.hops.push_back(d->access_hop());
  const bool host_copy = dynamic_cast<Dram*>(&from) || dynamic_cast<Dram*>(&to);
  Gpu* gpu = dynamic_cast<Gpu*>(&to) ? dynamic_cast<Gpu*>(&to) : dynamic_cast<Gpu*>(&from);
  if (a.copy_engine && host_copy && gpu) route.hops.insert(route.hops.begin(), gpu->copy_engine_hop());
  const DmaKind kind = a.kind == "read" ? DmaKind::read : DmaKind::write;
  RouteMover mover(ctx);
  DmaStream stream(mover, route, size, a.count, kind);
  stream.start(a.streams);
  ctx.run();
  const double gbps = gb_per_s(size * a.count, ctx.now());
  const Hop* narrow = route.narrowest(size);
  std::string busiest;
  double best = -1;
  for (const Hop& h : route.hops) {
    const double u = h.server->utilization(Time(0), ctx.now());
    if (u > best) {
      best = u;
      busiest = h.label;
    }
  }
  const nlohmann::json j = {{"topology", topo.name()},   {"from", a.from},       {"to", a.to},
                            {"size", size.n},            {"count", a.count},     {"streams", a.streams},
                            {"kind", a.kind},            {"route", route.devices}, {"throughput_GBps", gbps},
                            {"elapsed_us", ctx.now().us()}, {"narrowest_hop", narrow ? narrow->label : ""},
                            {"busiest_hop", busiest},    {"busiest_utilization", best}};
  emit(a.out,
       [&] {
         return fmt::format("{} -> {} ({}), {} x {} DMA {}s, {} in flight: {:.2f} GB/s; busiest hop {} ({:.0f}%)\n",
                            a.from, a.to, route.describe(), a.count, to_string(size), a.kind, a.streams, gbps, busiest,
                            best * 100);
       },
       j);
}

void setup(CLI::App& root, CliState&) {
  CLI::App* pcie = nullptr;
  for (CLI::App* sub : root.get_subcommands([](CLI::App* s) { return s->get_name() == "pcie"; })) pcie = sub;
  if (!pcie) return;
  auto a = std::make_shared<DmaArgs>();
  CLI::App* dma = pcie->add_subcommand("dma", "stream DMA transfers between two devices of a topology (chunk fidelity)");
  dma->add_option("topology", a->topology, "topology JSON")->required();
  dma->add_option("--from", a->from, "source device id")->required();
  dma->add_option("--to", a->to, "destination device id")->required();
  dma->add_option("--size", a->size, "bytes per transfer");
  dma->add_option("--count", a->count, "transfers in all")->check(CLI::Range(1, 10000000));
  dma->add_option("--streams", a->streams, "transfers in flight at a time")->check(CLI::Range(1, 4096));
  dma->add_option("--kind", a->kind, "read (the destination pulls: completions) or write (posted writes)")
      ->check(CLI::IsMember({"read", "write"}));
  dma->add_flag("!--no-copy-engine", a->copy_engine, "do not charge a GPU copy engine for host<->GPU copies");
  dma->add_option("--set", a->sets, "override a topology field: POINTER=VALUE");
  a->out.add_to(*dma, false);
  dma->callback([a] { run(*a); });
}

}  // namespace

// After `pcie` (order 35) so that the parent command exists.
IOWALL_REGISTER_COMMAND(36, setup);

}  // namespace iowall
