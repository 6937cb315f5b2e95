// cpu_gpu: O_DIRECT into pinned host memory, then cudaMemcpyAsync to the GPU (reads;
// writes the other way). Each I/O is a two-stage pipeline; with many threads the
// stages of different I/Os overlap, as double buffering does in a tuned loader.
#include "models/gpu/gpu.hpp"
#include "models/host/cpu_socket.hpp"
#include "models/host/dram.hpp"
#include "models/host/io_stack.hpp"
#include "sim/config/registry.hpp"
#include "models/paths/path_base.hpp"

namespace iowall {

class CpuGpuPath final : public PathBase {
public:
  struct Config : HostIoStack {
    using HostIoStack::HostIoStack;
    IOWALL_PARAM(Time, copy_launch_cost, "3 us", "CPU time to launch and synchronize one cudaMemcpyAsync",
                 "order of magnitude of CUDA API overhead; calibrate with `iowall calibrate`");
  };
  CpuGpuPath(const Params& p, PathEnv& env) : PathBase(env), config_(p) {
    stack_polls_ = config_.polled;
    set_buffer_segment(config_.buffer_segment);
  }

  void submit(const IoRequest& r, Done done) override {
    auto* gpu = dynamic_cast<Gpu*>(r.target);
    if (!gpu) throw InputError(env_.file, env_.pointer, "cpu_gpu needs a GPU target, not " + r.target->name());
    Dram& dram = dram_near(*gpu);
    InFlight f{r, done, &cpu_near(dram), nullptr, nullptr};
    if (r.write) {
      f.first = &env_.route(*gpu, dram, {gpu->copy_engine_hop()});  // device -> host copy
      f.second = &env_.route(dram, r.storage->device());
    } else {
      f.first = &env_.route(r.storage->device(), dram);
      f.second = &env_.route(dram, *gpu, {gpu->copy_engine_hop()});  // host -> device copy
    }
    const std::uint32_t id = begin(f);
    thread_spend(id, r.write ? config_.copy_launch_cost : config_.submit_cost, [this, id] { stage_one(id); });
  }

private:
  // Reads: storage -> host memory. Writes: the copy from the GPU into host memory.
  void stage_one(std::uint32_t id) {
    if (io(id).io.write) {
      env_.mover.send(*io(id).first, io(id).io.size,
                      [this, id] { thread_spend(id, config_.submit_cost, [this, id] { stage_two(id); }); });
    } else {
      storage_step(id, *io(id).first, [this, id] {
        thread_spend(id, config_.complete_cost + config_.copy_launch_cost, [this, id] { stage_two(id); });
      });
    }
  }
  // Reads: the copy from host memory into the GPU. Writes: host memory -> storage.
  void stage_two(std::uint32_t id) {
    if (io(id).io.write)
      storage_step(id, *io(id).second,
                   [this, id] { thread_spend(id, config_.complete_cost, [this, id] { finish(id); }); });
    else
      // The GPU's copy engine reads host memory: completions carry the data.
      env_.mover.send(*io(id).second, io(id).io.size, [this, id] { finish(id); }, DmaKind::read);
  }

  Config config_;
};

IOWALL_REGISTER_PATH(CpuGpuPath, "cpu_gpu", "O_DIRECT into pinned host memory, then cudaMemcpyAsync (bounce buffer)");

}  // namespace iowall
