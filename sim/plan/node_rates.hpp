// One node's checkpoint save and restore, simulated at chunk fidelity on its topology so
// that the planner's rates come from the node's devices instead of hand-entered flags.
// Every GPU of the topology is a rank: it saves `rank_bytes` with the checkpoint_save
// workload and restores them with checkpoint_load, each to and from its nearest drives,
// through the data path that implements the planner's path:
//   buffered  cpu_cached: .cpu() into pageable memory, torch.save's CRC-32 pass, 1 MiB
//             write()s into the page cache, fsync; restore through the page cache (one
//             blocking reader, the kernel's readahead a window ahead of it) into new memory,
//             then to the GPU. The save is simulated twice: into memory the process kept
//             from its last save (host_memory pageable: the GPU machine's checkpoint rounds
//             2 and 3 took 0-5,418 page faults against the first round's 488,060 at 2 GB and
//             1,469,320 at 8 GB, 4-18 MB tensors, in 13 of the 15 sessions that counted
//             them; validation/checkpoint-h*.json's notes), and into new memory, as the
//             first save in a process does (pageable_fresh). The planner's periodic save
//             weights the two by the share of bytes in tensors over kMallocReuseMax, which
//             glibc maps anew at every save (periodic_save below).
//   bounce    cpu_only: pinned, double-buffered host buffers (FastPersist, DeepNVMe), a
//             buffer written with O_DIRECT while the next is copied, fsync at the end;
//             restore with O_DIRECT into pinned memory, then to the GPU.
//   gds       gpu_direct: cuFileWrite from GPU memory, fsync; cuFileRead into it.
// Results are cached per (topology, path, rank bytes) for the life of the process, so
// searches and repeated questions about one node type simulate it once.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/plan/plan_types.hpp"
#include "sim/run/uncertain_inputs.hpp"

namespace iowall::plan {

// The node's simulation (cached). Throws InputError (where: the scenario built for the
// node, message naming the topology) when the topology cannot be read or has no GPU.
std::shared_ptr<const NodeSimulation> simulate_node(const std::string& topology, IoPath path, double rank_bytes);

// The uncertain inputs of the node's simulations: every value of its topology (and of the
// presets it names) given with a spread or a range (sim/run/uncertain_inputs.hpp).
std::vector<UncertainInput> node_inputs(const std::string& topology, IoPath path, double rank_bytes);
// The node simulated with input k set to values[k] (not cached): one Monte Carlo sample,
// or one end of a sensitivity run, of plan checkpoint --uncertainty.
std::shared_ptr<const NodeSimulation> simulate_node_with(const std::string& topology, IoPath path, double rank_bytes,
                                                         const std::vector<UncertainInput>& inputs,
                                                         const std::vector<i64>& values);

// The node's own drives as the storage target (local-nvme): node write and read rates from
// the simulated storage phases, and a note saying so. Hand flags applied after override them.
void use_node_storage(PlanInput& in);

// The scenario simulate_node runs for one direction (exposed for tests and for people who
// want to run it themselves with `iowall run`).
// glibc malloc's mmap threshold at its highest: a freed block up to this size stays on the
// heap for the next save, a larger one was mmap()ed and is unmapped when freed (mallopt(3)
// M_MMAP_THRESHOLD, DEFAULT_MMAP_THRESHOLD_MAX = 4*1024*1024*sizeof(long) on 64-bit).
inline constexpr double kMallocReuseMax = 32.0 * 1024 * 1024;

// The buffered path's periodic save, phase by phase: the memory-kept save and the first
// save (new memory) weighted by the share of the bytes whose memory is new each time.
std::vector<NodePhase> periodic_save(const NodeSimulation& sim, double new_share);

enum class NodeRun { save, first_save, restore };
std::string node_scenario(const std::string& topology, IoPath path, double rank_bytes, NodeRun run);

}  // namespace iowall::plan
