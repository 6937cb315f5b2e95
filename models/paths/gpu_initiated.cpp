// gpu_initiated: BaM-style I/O issued by GPU threads, no CPU at all. The I/O queue
// pairs live in GPU memory: the SSD fetches SQ entries from and posts CQ entries to
// the GPU peer-to-peer, the GPU writes the SQ tail doorbell into the SSD's BAR, and its
// threads poll the CQ (no MSI-X). A warp batches its commands behind one doorbell. The
// cost the GPU pays is command-ID allocation: partitioned per warp (warp_id << 10 |
// local_cid) it is a local operation; from one global atomic counter every command of
// every thread serializes on it (seed 000's synchronization challenge).
#include <fmt/format.h>

#include <array>
#include <map>
#include <memory>
#include <unordered_map>

#include "models/gpu/gpu.hpp"
#include "sim/config/registry.hpp"
#include "models/paths/path_base.hpp"

namespace iowall {

class GpuInitiatedPath final : public PathBase {
  static constexpr i64 kMaxWarp = 64;  // AMD's wavefronts; NVIDIA's warps are 32

public:
  struct Config : ParamSet {
    using ParamSet::ParamSet;
    IOWALL_PARAM_CHOICE(cid_allocation, "warp_partition", (std::vector<std::string>{"warp_partition", "global_atomic"}),
                        "warp_partition: each warp owns a CID range (warp_id << 10 | local_cid); global_atomic: "
                        "every command takes its CID from one GPU-wide atomic counter",
                        "seed 000: CID allocation as a serialization point and the per-warp partition");
    IOWALL_PARAM(Time, global_atomic_cost, "20 ns",
                 "GPU time one command holds the global CID counter (contended atomic with retry)",
                 "assumption: same-address atomics serialize at one L2 slice; calibrate on the machine");
    IOWALL_PARAM(Time, local_cid_cost, "1 ns", "GPU time for a warp-local CID (shared-memory counter)",
                 "assumption: a few cycles");
    IOWALL_PARAM_INT(queues, 32, 1, 65535, "GPU-owned I/O queue pairs per SSD (warp-per-queue mapping)",
                     "BaM: one queue pair per group of warps, up to the controller's queues");
    IOWALL_PARAM_INT(warp_batch, 32, 1, 65536, "commands a warp places before one thread rings the doorbell",
                     "seed 000: 32 commands, 1 doorbell write");
    IOWALL_PARAM_CHOICE(cq_lookup, "reap_all", (std::vector<std::string>{"reap_all", "scan", "in_order"}),
                        "how a thread finds its completion: reap_all (a polling warp consumes every new entry), "
                        "scan (each thread reads from the CQ head to its CID: O(N)), in_order (entries posted in "
                        "submission order: O(1), but a command waits for the ones before it)",
                        "seed 000: phase-tag scanning of out-of-order completions vs in-order completion");
    IOWALL_PARAM(Time, cq_check_cost, "500 ns", "a GPU thread reading one CQ entry from GPU memory (scan)",
                 "assumption: a global-memory load that misses L2, 400-600 ns on H100-class GPUs");
    IOWALL_PARAM_BOOL(warp_lockstep, true,
                      "a warp's threads submit together on the warp's queue pair (one doorbell for the warp) and "
                      "issue their next I/Os when all of the warp's I/Os are done; false: every thread on its own, "
                      "commands spread round-robin over the queues",
                      "BaM (ASPLOS'23): warp-coalesced submission; SIMT threads of a warp run one instruction stream");
    IOWALL_PARAM_INT(warp_size, 32, 1, kMaxWarp, "GPU threads per warp (each with one I/O in flight)",
                     "CUDA: 32 threads per warp");
  };
  GpuInitiatedPath(const Params& p, PathEnv& env)
      : PathBase(env), config_(p),
        cq_lookup_(config_.cq_lookup == "scan"       ? CqLookup::scan
                   : config_.cq_lookup == "in_order" ? CqLookup::in_order
                                                      : CqLookup::reap_all),
        global_atomic_(config_.cid_allocation == "global_atomic") {}

  bool takes_gpu_buffers() const override { return true; }

  void submit(const IoRequest& r, Done done) override {
    Gpu* gpu = as_gpu(r.target);
    if (!gpu)
      throw InputError(env_.file, env_.pointer,
                       fmt::format("gpu_initiated issues I/O from GPU threads; the target {} is not a GPU",
                                   r.target->name()));
    const Route* route = r.write ? &env_.route(*gpu, r.storage->device()) : &env_.route(r.storage->device(), *gpu);
    const std::uint32_t id = begin({r, done, nullptr, route, nullptr});
    const int queue = config_.warp_lockstep ? join_warp(*gpu, id) : static_cast<int>(next_queue_++ % config_.queues);
    const i64 commands = ceil_div(r.size, r.storage->limits().max_transfer);
    if (global_atomic_) {
      // Every command's CID comes from one counter: the commands queue on it.
      cid_counter(*gpu).submit(config_.global_atomic_cost * commands, Time(0), {},
                               [this, id, queue] { issue(id, queue, Time(0)); });
      return;
    }
    // Warp-local CIDs: the thread's time on them delays its doorbell, nothing else.
    issue(id, queue, config_.local_cid_cost * commands);
  }

  std::string note() const override { return "no CPU: GPU threads submit, ring doorbells and poll completions"; }

private:
  Gpu* as_gpu(Device* target) {  // a dynamic_cast per I/O showed in profiles
    const auto [it, inserted] = gpus_.try_emplace(target, nullptr);
    if (inserted) it->second = dynamic_cast<Gpu*>(target);
    return it->second;
  }
  Server& cid_counter(Gpu& gpu) {
    auto& s = counters_[&gpu];
    if (!s) {
      s = std::make_unique<Server>(gpu, "cid_counter");
      s->set_carries("command ID atomic");
    }
    return *s;
  }
  void issue(std::uint32_t id, int queue, Time submit_delay) {
    const IoRequest& r = io(id).io;
    Device& gpu = *r.target;
    QueueRoutes queues;
    queues.to_queues = &env_.route(r.storage->device(), gpu);
    queues.from_queues = &env_.route(gpu, r.storage->device());
    queues.mover = &env_.mover;
    queues.submitter_polls = true;
    queues.doorbell_batch = static_cast<int>(config_.warp_batch);
    queues.cq_lookup = cq_lookup_;
    queues.cq_check_cost = config_.cq_check_cost;
    queues.submit_delay = submit_delay;
    storage_part(r, r.offset, r.size, *io(id).first, [this, id] { done(id); }, &queues, queue);
  }

  // Lockstep warps: the I/Os a GPU's threads submit in one instant form a warp of up
  // to warp_size; it closes when full or at the end of the instant. Its queue pair is
  // its record's index, so the warp that its threads form again keeps the queue.
  struct Warp {
    std::array<std::uint32_t, kMaxWarp> members;
    int size = 0, done = 0;
    bool open = true;
  };
  int join_warp(const Device& gpu, std::uint32_t id) {
    auto [it, fresh] = open_warp_.try_emplace(&gpu, kNoWarp);
    if (it->second == kNoWarp) {
      it->second = warps_.acquire(Warp{});
      const std::uint32_t w = it->second;
      env_.ctx.at(env_.ctx.now(), [this, w, g = &gpu] { close_warp(*g, w); });
    }
    const std::uint32_t w = it->second;
    Warp& warp = warps_[w];
    warp.members[static_cast<std::size_t>(warp.size++)] = id;
    if (warp_of_.size() <= id) warp_of_.resize(id + 1);
    warp_of_[id] = w;
    if (warp.size == config_.warp_size) it->second = kNoWarp;  // full: the next I/O opens another
    return static_cast<int>(w % static_cast<std::uint32_t>(config_.queues));
  }
  void close_warp(const Device& gpu, std::uint32_t w) {
    auto it = open_warp_.find(&gpu);
    if (it != open_warp_.end() && it->second == w) it->second = kNoWarp;
    warps_[w].open = false;
    if (warps_[w].done == warps_[w].size) release_warp(w);
  }
  void done(std::uint32_t id) {
    if (!config_.warp_lockstep) {
      finish(id);
      return;
    }
    const std::uint32_t w = warp_of_[id];
    Warp& warp = warps_[w];
    if (++warp.done == warp.size && !warp.open) release_warp(w);
  }
  void release_warp(std::uint32_t w) {
    // The threads go on together; what they submit next forms a warp in this record.
    const Warp warp = warps_[w];
    warps_.release(w);
    for (int i = 0; i < warp.size; ++i) finish(warp.members[static_cast<std::size_t>(i)]);
  }

  Config config_;
  const CqLookup cq_lookup_;
  const bool global_atomic_;
  std::map<const Gpu*, std::unique_ptr<Server>> counters_;
  std::unordered_map<const Device*, Gpu*> gpus_;
  std::uint64_t next_queue_ = 0;
  static constexpr std::uint32_t kNoWarp = UINT32_MAX;
  SlotPool<Warp> warps_;
  std::unordered_map<const Device*, std::uint32_t> open_warp_;  // by GPU: the warp being formed
  std::vector<std::uint32_t> warp_of_;                          // by I/O: its warp
};

IOWALL_REGISTER_PATH(GpuInitiatedPath, "gpu_initiated",
                     "BaM-style: GPU threads submit NVMe commands from queues in GPU memory and poll completions");

}  // namespace iowall
