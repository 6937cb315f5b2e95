// cpu_only: O_DIRECT into host memory, the storage ceiling. The CPU pays the system
// call and block layer on submission and the interrupt and wake-up on completion.
#include "models/host/cpu_socket.hpp"
#include "models/host/dram.hpp"
#include "models/ssd/nvme_ssd.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/slot_pool.hpp"
#include "sim/run/data_path.hpp"

namespace iowall {

class CpuOnlyPath final : public DataPath {
public:
  struct Config {
    Time submit_cost, complete_cost;
  };
  static Config read_config(const Params& p) {
    return {p.get_time("submit_cost", "2 us", "CPU time to submit one O_DIRECT I/O (syscall, block layer, driver)",
                       "order of magnitude of Linux psync per-I/O cost; calibrate with `iowall calibrate`"),
            p.get_time("complete_cost", "2 us", "CPU time to complete one I/O (interrupt, wake-up, context switch)",
                       "order of magnitude of MSI-X + wake-up cost; calibrate with `iowall calibrate`")};
  }
  CpuOnlyPath(const Params& p, PathEnv& env) : config_(read_config(p)), env_(env) {}

  void submit(const IoRequest& io, Done done) override {
    Dram& dram = env_.dram_near(*io.storage);
    CpuSocket* cpu = &env_.cpu_near(dram);
    const Route* route = io.write ? &env_.route(dram, *io.storage) : &env_.route(*io.storage, dram);
    const std::uint32_t id = ios_.acquire({io, done, cpu, route});
    cpu->spend(config_.submit_cost, [this, id] { transfer(id); });
  }

private:
  struct InFlight {
    IoRequest io;
    Done done;
    CpuSocket* cpu;
    const Route* route;
  };
  void transfer(std::uint32_t id) {
    InFlight& f = ios_[id];
    auto complete = [this, id] { ios_[id].cpu->spend(config_.complete_cost, [this, id] { finish(id); }); };
    if (f.io.write)
      f.io.storage->write(f.io.size, *f.route, env_.mover, complete);
    else
      f.io.storage->read(f.io.size, *f.route, env_.mover, complete);
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

IOWALL_REGISTER_PATH(CpuOnlyPath, "cpu_only", "O_DIRECT between storage and host memory (the storage ceiling)");

}  // namespace iowall
