// cpu_only: O_DIRECT into host memory, the storage ceiling. The CPU pays the system
// call and block layer on submission and the interrupt and wake-up on completion.
#include "models/host/cpu_socket.hpp"
#include "models/host/dram.hpp"
#include "sim/config/registry.hpp"
#include "sim/run/path_base.hpp"

namespace iowall {

class CpuOnlyPath final : public PathBase {
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
  CpuOnlyPath(const Params& p, PathEnv& env) : PathBase(env), config_(read_config(p)) {}

  void submit(const IoRequest& r, Done done) override {
    Dram& dram = env_.dram_near(*r.storage);
    CpuSocket* cpu = &env_.cpu_near(dram);
    const Route* route = r.write ? &env_.route(dram, *r.storage) : &env_.route(*r.storage, dram);
    const std::uint32_t id = begin({r, done, cpu, route, nullptr});
    cpu->spend(config_.submit_cost, [this, id] {
      storage_step(id, *io(id).first,
                   [this, id] { io(id).cpu->spend(config_.complete_cost, [this, id] { finish(id); }); });
    });
  }

private:
  Config config_;
};

IOWALL_REGISTER_PATH(CpuOnlyPath, "cpu_only", "O_DIRECT between storage and host memory (the storage ceiling)");

}  // namespace iowall
