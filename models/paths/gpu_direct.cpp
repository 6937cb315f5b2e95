// gpu_direct: cuFile with peer-to-peer DMA. The CPU only runs cuFile's control plane
// (a fixed cost per I/O, half at submission and half at completion); the SSD DMAs
// straight into GPU memory through the switch, or through the root complex's P2P
// bridge when the two sit under different root ports.
#include "models/host/cpu_socket.hpp"
#include "models/ssd/nvme_ssd.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/slot_pool.hpp"
#include "sim/run/data_path.hpp"

namespace iowall {

class GpuDirectPath final : public DataPath {
public:
  struct Config {
    Time control_cost;
  };
  static Config read_config(const Params& p) {
    return {p.get_time("control_cost", "8 us", "CPU time cuFile spends per I/O (submit, completion, bookkeeping)",
                       "order of magnitude from GDS design notes; calibrate with `iowall calibrate`")};
  }
  GpuDirectPath(const Params& p, PathEnv& env) : config_(read_config(p)), env_(env) {}

  void submit(const IoRequest& io, Done done) override {
    CpuSocket* cpu = &env_.cpu_near(*io.target);
    const Route* route = io.write ? &env_.route(*io.target, *io.storage) : &env_.route(*io.storage, *io.target);
    const std::uint32_t id = ios_.acquire({io, done, cpu, route});
    cpu->spend(config_.control_cost / 2, [this, id] { transfer(id); });
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
    auto complete = [this, id] { ios_[id].cpu->spend(config_.control_cost / 2, [this, id] { finish(id); }); };
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

IOWALL_REGISTER_PATH(GpuDirectPath, "gpu_direct", "cuFile with P2P DMA: storage DMAs straight into GPU memory");

}  // namespace iowall
