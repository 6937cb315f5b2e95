// `iowall pcie bw`: the pcie_bw study of models/pcie, run by name: the effective
// bandwidth a DMA stream of one transfer size gets over one PCIe link, from the
// protocol arithmetic (`model`) or by simulating every TLP and DLLP (`sim`). Its
// options are the study's parameters (`iowall models pcie_bw`).
#include "sim/cli/command.hpp"
#include "sim/cli/study_options.hpp"

namespace iowall {
namespace {

void setup_pcie(CLI::App& root, CliState&) {
  auto a = std::make_shared<StudyOptions>("pcie_bw", "iowall pcie bw");
  CLI::App* pcie = root.add_subcommand("pcie", "PCIe calculators");
  pcie->require_subcommand(1);
  CLI::App* bw = pcie->add_subcommand("bw", "effective DMA bandwidth of one link for a transfer size");
  a->integer(*bw, "--gen", "PCIe generation 1-6");
  a->integer(*bw, "--lanes", "link width: 1, 2, 4, 8, 12, 16, 32");
  a->integer(*bw, "--mps", "max payload size in bytes");
  a->integer(*bw, "--mrrs", "max read request size in bytes");
  a->integer(*bw, "--rcb", "read completion boundary in bytes (64 or 128)");
  a->flag(*bw, "--rcb-split", "completers split completions at the RCB instead of MPS");
  a->flag(*bw, "--ecrc", "end-to-end CRC on every TLP");
  a->text(*bw, "--size", "bytes per DMA transfer (e.g. 4096 or \"64 KiB\")");
  a->text(*bw, "--op", "write (device writes host memory) or read (device reads host memory)");
  a->text(*bw, "--method", "model (protocol arithmetic) or sim (TLP-level simulation)");
  a->text(*bw, "--latency", "sim: one-way link latency");
  a->text(*bw, "--completer-latency", "sim: host memory read latency");
  a->integer(*bw, "--tags", "sim: requester's outstanding read requests");
  a->text(*bw, "--engine-interval", "the device DMA engine starts a transfer at most this often (0: no limit)");
  a->integer(*bw, "--transfers", "sim: transfers to stream (default: 8 MiB worth)");
  a->outputs(*bw);
  bw->callback([a] { a->run(); });
}

}  // namespace

IOWALL_REGISTER_COMMAND(35, setup_pcie);

}  // namespace iowall
