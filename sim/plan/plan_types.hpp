// The question and the answer of `iowall plan checkpoint`, shared by every fidelity:
// the analytical planner fills PlanResult in closed form, a flow-level simulation can
// fill the same fields from the same PlanInput. Quantities are SI doubles (bytes,
// seconds, bytes per second, watts): the closed forms and an MTTF of years do not fit
// the engine's picosecond integers, and nothing here accumulates rounding.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/plan/checkpoint_state.hpp"
#include "sim/plan/cluster.hpp"
#include "sim/plan/restore_mode.hpp"
#include "sim/plan/storage_target.hpp"

namespace iowall::plan {

// gds: cuFileWrite/Read straight between HBM and the drives; bounce: the copy engine into
// host buffers, then storage I/O from them (with --node: pinned buffers and O_DIRECT, as
// FastPersist/DeepNVMe do); buffered: the framework default (a pageable copy, a serializer's
// pass, a page-cache write, fsync; restore through the page cache). Without --node, buffered
// has the bounce path's stages.
enum class IoPath { gds, bounce, buffered };
const char* name(IoPath p);

// One GPU node's data path between HBM and the storage NICs.
struct NodeSpec {
  double gpu_link_bw = 55.63e9;   // GDS: one GPU's PCIe link (figures.md: H100 55.63 GB/s)
  double d2h_bw = 55.63e9;        // copy engine HBM -> host (assumed equal to host -> device)
  double h2d_bw = 55.63e9;        // copy engine host -> HBM (figures.md, nvbandwidth)
  double host_mem_bw = 490e9;     // node DRAM: 2 sockets x 8 DDR5-4800 channels = 614 GB/s peak, 80% sustained (assumption)
  double memcpy_bw = 10e9;        // one CPU thread (figures.md: ~6 GB/s older servers; 10-12 newer)
  int bounce_copies = 1;          // CPU copies per byte on the bounce path (write() into the page cache)
  bool bounce_pipelined = false;  // false: copy all to host, then write (torch.save-style)
  double host_mem_capacity = 2e12;  // DGX H100: 2 TB (datasheet)
  double hbm_capacity = 80e9;       // H100: 80 GB (datasheet)
  // One GPU's link into the compute fabric: DGX H100 has eight 400 Gb/s ConnectX-7 ports
  // for it, one per GPU (datasheet); carries a read-once restore's broadcast.
  double fabric_bw = 400e9 / 8;
};

// The network between GPU nodes and storage, for the flow-level fidelity (the closed
// forms assume a non-blocking fabric).
struct FabricSpec {
  int nodes_per_leaf = 32;     // nodes under one leaf switch (assumption: a 64-port leaf, half down)
  double leaf_uplink_bw = 0;   // B/s from a leaf to the spine; 0 = non-blocking
};

// One node's checkpoint save and restore as simulated at chunk fidelity on its topology
// (sim/plan/node_rates.hpp): every GPU saves (restores) `rank_bytes` at once; each phase's
// time (the slowest rank's) and what bound it.
struct NodePhase {
  std::string name;          // the workload's phase: d2h, serialize_write, fsync, d2h_write, read, h2d
  double seconds = 0;
  std::string limited_by;    // a resource or a rank's thread ("" when the phase took no time)
  double utilization = 0;
};
struct NodeSimulation {
  std::string topology;  // as given (a shipped name, a file)
  IoPath path = IoPath::buffered;
  int gpus = 0;
  double rank_bytes = 0;
  std::vector<NodePhase> save, restore;
  double save_s = 0, restore_s = 0;  // until durable; until the last tensor is on the GPU
  // The buffered path's first save in a process, into new memory (empty, 0 on other paths).
  std::vector<NodePhase> first_save;
  double first_save_s = 0;
};
// With a node: which hand flags replace the simulated phase they stand for.
struct NodeOverrides {
  bool node_bw = false, node_read_bw = false, gpu_link_bw = false, memcpy_bw = false, d2h_bw = false, h2d_bw = false;
};

struct PlanInput {
  checkpoint::StateSpec state;
  checkpoint::Parallelism par;
  StorageTarget storage = storage_preset("nvme-of");
  NodeSpec node;
  FabricSpec fabric;
  IoPath path = IoPath::gds;
  RestoreMode restore = RestoreMode::read_all;
  bool async = false;             // copy to host memory, flush while training resumes
  double interval = 0;            // s of training between checkpoints; 0 = Daly's optimum
  double barrier = -1;            // s; < 0 = log2(ranks) rounds of 10 us (assumption)
  double mttf = 50000 * 3600.0;   // s per accelerator (figures.md, MLCommons)
  double restart = 0;             // s to reschedule and re-initialise after a failure, beside restore
  double cluster_power = 0;       // W; 0 = gpus x 1275 W (DGX H100: 10.2 kW for 8 GPUs)
  std::shared_ptr<const NodeSimulation> node_sim;  // --node: phases from the node's simulation
  // --node, buffered: the share of a rank's saved bytes in tensors whose memory a periodic save
  // finds new (over glibc's 32 MiB mmap threshold ceiling), and what it came from.
  double new_memory_share = 1;
  std::string new_memory_from;
  std::shared_ptr<const ClusterSpec> cluster;      // --cluster: routes and servers for the flow fidelity
  NodeOverrides node_overrides;
};

// One transfer phase (save, restore, async flush) over all ranks.
struct Phase {
  double bytes = 0;            // over all ranks
  double first_done = 0;       // s from the start of the phase: the first rank finished
  double last_done = 0;        // s: the slowest rank finished; this is when the phase is done
  std::string bottleneck;      // the term that set last_done
  struct Term {
    std::string name;
    double seconds;
  };
  std::vector<Term> terms;     // every lower bound considered, for the curious
};

struct PlanResult {
  // The state.
  checkpoint::BytesPerParam bytes_per_param;
  double params = 0, total_bytes = 0, rank_max_bytes = 0, node_max_bytes = 0;
  int writers = 0, nodes = 0;
  double training_state_per_gpu = 0;  // bytes held per GPU while training (with gradients)
  // Times.
  Phase save, restore;
  Phase flush;                  // async only: background write from host memory
  double stall = 0;             // s training stops per checkpoint
  // Failures.
  double mtbf = 0, young = 0, daly = 0, interval = 0, recovery = 0;
  double waste_first_order = 0;      // delta/T + (T/2 + R)/M per unit of useful work
  double availability = 0;           // useful / wall time, Daly 2006 exponential model
  double availability_no_failures = 0;  // T / (T + delta)
  double overhead = 0;               // 1 - availability: share of wall time lost
  double gpu_hours_lost_per_day = 0, gpu_hours_checkpoint = 0, gpu_hours_rework = 0;
  double cluster_power = 0, mwh_lost_per_day = 0, mwh_checkpoint = 0, mwh_rework = 0, power_wasted = 0;
  std::vector<std::string> warnings;
};

}  // namespace iowall::plan
