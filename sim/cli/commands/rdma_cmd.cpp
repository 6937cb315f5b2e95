// `iowall rdma reg|crossover|mtt`: the RDMA studies of models/rdma (rdma_reg,
// rdma_crossover, rdma_mtt), run by name: memory registration cost per I/O or
// persistent with seed 001's Registration Efficiency Ratio, the I/O at which persistent
// GPU registration overtakes per-I/O host registration, and HCA translation-cache
// thrashing. Their options are the studies' parameters (`iowall models rdma_reg`).
#include "sim/cli/command.hpp"
#include "sim/cli/study_options.hpp"

namespace iowall {
namespace {

// The registration cost options, each a key after `prefix` ("host_fixed" from --host-fixed).
void cost_options(StudyOptions& o, CLI::App& cmd, const std::string& prefix = "") {
  o.text(cmd, "--" + prefix + "fixed", "fixed registration cost (e.g. \"10 us\")");
  o.text(cmd, "--" + prefix + "per-page", "cost per page (e.g. \"390 ns\")");
  o.text(cmd, "--" + prefix + "page-size", "page size (e.g. \"4 KiB\")");
  o.text(cmd, "--" + prefix + "dereg-per-page", "deregistration cost per page");
  o.text(cmd, "--" + prefix + "capacity", "memory of this kind that exists (e.g. \"2 TiB\")");
}

void setup_rdma(CLI::App& root, CliState&) {
  CLI::App* rdma = root.add_subcommand("rdma", "RDMA HCA calculators: registration, translation cache");
  rdma->require_subcommand(1);

  auto ra = std::make_shared<StudyOptions>("rdma_reg", "iowall rdma reg");
  CLI::App* reg = rdma->add_subcommand("reg", "memory registration cost and Registration Efficiency Ratio");
  ra->text(*reg, "--size", "buffer size (e.g. \"1 GB\")");
  ra->text(*reg, "--memory", "host or gpu");
  ra->text(*reg, "--io-size", "bytes per I/O");
  ra->text(*reg, "--link", "link rate (e.g. \"100 Gb/s\")");
  ra->integer(*reg, "--ios", "I/Os from the buffer");
  auto* per_io = ra->flag(*reg, "--per-io", "register and deregister around every I/O (default)", "persistent", false);
  ra->flag(*reg, "--persistent", "register the buffer once", "persistent", true)->excludes(per_io);
  cost_options(*ra, *reg);
  ra->outputs(*reg);
  reg->callback([ra] { ra->run(); });

  auto ca = std::make_shared<StudyOptions>("rdma_crossover", "iowall rdma crossover");
  CLI::App* cross = rdma->add_subcommand("crossover", "I/O at which persistent GPU registration beats per-I/O host");
  ca->text(*cross, "--io-size", "bytes per I/O");
  ca->text(*cross, "--buffers", "comma-separated GPU buffer sizes");
  cost_options(*ca, *cross, "host-");
  cost_options(*ca, *cross, "gpu-");
  ca->outputs(*cross);
  cross->callback([ca] { ca->run(); });

  auto ma = std::make_shared<StudyOptions>("rdma_mtt", "iowall rdma mtt");
  CLI::App* mtt = rdma->add_subcommand("mtt", "HCA translation cache hit rate with many live buffers");
  ma->integer(*mtt, "--workers", "workers, one registered buffer each");
  ma->text(*mtt, "--buffer", "each worker's buffer, read whole by each I/O");
  ma->text(*mtt, "--memory", "host (4 KiB pages) or gpu (64 KiB pages)");
  ma->integer(*mtt, "--entries", "translation lines the HCA caches");
  ma->integer(*mtt, "--mtt-per-line", "MTT entries per fetched line");
  ma->text(*mtt, "--miss", "PCIe read round trip per miss (e.g. \"1 us\")", "miss_penalty");
  ma->text(*mtt, "--order", "cyclic (each worker in turn) or random");
  ma->seed(*mtt, "random seed for --order random");
  ma->integer(*mtt, "--rounds", "rounds of one I/O per worker (first one warms up)");
  ma->outputs(*mtt);
  mtt->callback([ma] { ma->run(); });
}

}  // namespace

IOWALL_REGISTER_COMMAND(37, setup_rdma);

}  // namespace iowall
