// `iowall pcie dma TOPOLOGY --from A --to B`: the pcie_dma study of models/pcie, run by
// name: DMA transfers streamed between two devices of a topology at chunk fidelity,
// with the throughput and the busiest hop (host->device copies, peer-to-peer reads,
// what-if link changes through --set).
#include "sim/cli/command.hpp"
#include "sim/cli/study_options.hpp"

namespace iowall {
namespace {

void setup_pcie_dma(CLI::App& root, CliState&) {
  CLI::App* pcie = nullptr;
  for (CLI::App* sub : root.get_subcommands([](CLI::App* s) { return s->get_name() == "pcie"; })) pcie = sub;
  if (!pcie) return;
  auto a = std::make_shared<StudyOptions>("pcie_dma", "iowall pcie dma");
  CLI::App* dma = pcie->add_subcommand("dma", "stream DMA transfers between two devices of a topology (chunk fidelity)");
  a->text(*dma, "topology", "topology JSON")->required();
  a->text(*dma, "--from", "source device id")->required();
  a->text(*dma, "--to", "destination device id")->required();
  a->text(*dma, "--size", "bytes per transfer");
  a->integer(*dma, "--count", "transfers in all");
  a->integer(*dma, "--streams", "transfers in flight at a time");
  a->text(*dma, "--kind", "read (the destination pulls: completions) or write (posted writes)");
  a->text(*dma, "--initiator", "copy_engine (cudaMemcpy) or sm (a copy kernel's loads and stores of host memory)");
  a->text(*dma, "--sm-request", "sm: bytes per PCIe request of the SMs' host accesses (default 128 B)");
  a->integer(*dma, "--sm-read-tags", "sm: read requests the GPU keeps outstanding (default 256)");
  a->flag(*dma, "--no-copy-engine", "do not charge a GPU copy engine for host<->GPU copies", "copy_engine", false);
  a->overrides(*dma, "--set", "override a topology field: POINTER=VALUE");
  a->outputs(*dma);
  dma->callback([a] { a->run(); });
}

}  // namespace

// After `pcie` (order 35) so that the parent command exists.
IOWALL_REGISTER_COMMAND(36, setup_pcie_dma);

}  // namespace iowall
