// cpu_gpu: O_DIRECT into pinned host memory, then cudaMemcpyAsync to the GPU (reads;
// writes the other way). Each I/O is a two-stage pipeline; with many threads the
// stages of different I/Os overlap, as double buffering does in a tuned loader.
#include "models/gpu/gpu.hpp"
#include "models/host/cpu_socket.hpp"
#include "models/host/dram.hpp"
#include "models/ssd/nvme_ssd.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/slot_pool.hpp"
#include "sim/run/data_path.hpp"

namespace iowall {

class CpuGpuPath final : public DataPath {
public:
  struct Config {
    Time submit_cost, complete_cost, copy_launch_cost;
  };
  static Config read_config(const Params& p) {
    return {p.get_time("submit_cost", "2 us", "CPU time to submit one O_DIRECT I/O", "as cpu_only"),
            p.get_time("complete_cost", "2 us", "CPU time to complete one I/O", "as cpu_only"),
            p.get_time("copy_launch_cost", "3 us", "CPU time to launch and synchronize one cudaMemcpyAsync",
                       "order of magnitude of CUDA API overhead; calibrate with `iowall calibrate`")};
  }
  CpuGpuPath(const Params& p, PathEnv& env) : config_(read_config(p)), env_(env) {}

  void submit(const IoRequest& io, Done done) override {
    auto* gpu = dynamic_cast<Gpu*>(io.target);
    if (!gpu) throw InputError(env_.file, env_.pointer, "cpu_gpu needs a GPU target, not " + io.target->name());
    Dram& dram = env_.dram_near(*gpu);
    CpuSocket* cpu = &env_.cpu_near(dram);
    InFlight f{io, done, cpu, nullptr, nullptr};
    if (io.write) {
      f.first = &env_.route(*gpu, dram, {gpu->copy_engine_hop()});  // device -> host copy
      f.second = &env_.route(dram, *io.storage);
    } else {
      f.first = &env_.route(*io.storage, dram);
      f.second = &env_.route(dram, *gpu, {gpu->copy_engine_hop()});  // host -> device copy
    }
    const std::uint32_t id = ios_.acquire(f);
    cpu->spend(io.write ? config_.copy_launch_cost : config_.submit_cost, [this, id] { stage_one(id); });
  }

private:
  struct InFlight {
    IoRequest io;
    Done done;
    CpuSocket* cpu;
    const Route* first;
    const Route* second;
  };
  void stage_one(std::uint32_t id) {
    InFlight& f = ios_[id];
    if (f.io.write) {
      env_.mover.send(*f.first, f.io.size, [this, id] {
        ios_[id].cpu->spend(config_.submit_cost, [this, id] { stage_two(id); });
      });
    } else {
      f.io.storage->read(f.io.size, *f.first, env_.mover, [this, id] {
        ios_[id].cpu->spend(config_.complete_cost + config_.copy_launch_cost, [this, id] { stage_two(id); });
      });
    }
  }
  void stage_two(std::uint32_t id) {
    InFlight& f = ios_[id];
    if (f.io.write)
      f.io.storage->write(f.io.size, *f.second, env_.mover,
                          [this, id] { ios_[id].cpu->spend(config_.complete_cost, [this, id] { finish(id); }); });
    else
      env_.mover.send(*f.second, f.io.size, [this, id] { finish(id); });
  }
  void finish(std::uint32_t id) {
    const Done done = ios_[id].done;
    ios_.release(id);
    done();
  }

  Config config_;
  PathEnv& env_;
  SlotPool<InFlight> ios_;
};

IOWALL_REGISTER_PATH(CpuGpuPath, "cpu_gpu", "O_DIRECT into pinned host memory, then cudaMemcpyAsync (bounce buffer)");

}  // namespace iowall
