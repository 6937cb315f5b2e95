// gpu_direct: cuFile with peer-to-peer DMA. The CPU only runs cuFile's control plane
// (a fixed cost per I/O, half at submission and half at completion); the SSD DMAs
// straight into GPU memory through the switch, or through the root complex's P2P
// bridge when the two sit under different root ports.
#include <fmt/format.h>

#include "models/host/cpu_socket.hpp"
#include "models/paths/compat.hpp"
#include "sim/config/registry.hpp"
#include "sim/run/path_base.hpp"

namespace iowall {

class GpuDirectPath final : public PathBase {
public:
  struct Config {
    Time control_cost;
  };
  static Config read_config(const Params& p) {
    return {p.get_time("control_cost", "8 us", "CPU time cuFile spends per I/O (submit, completion, bookkeeping)",
                       "order of magnitude from GDS design notes; calibrate with `iowall calibrate`")};
  }
  GpuDirectPath(const Params& p, PathEnv& env)
      : PathBase(env), config_(read_config(p)), compat_(Params(Json::object(), p.where()), env) {}

  void submit(const IoRequest& r, Done done) override {
    // GDS needs the file offset, the size and the GPU buffer 4 KiB aligned; otherwise
    // cuFile serves the I/O in compatibility mode (GDS docs, figures.md).
    if (r.offset.n % 4096 != 0 || r.size.n % 4096 != 0) {
      ++unaligned_;
      compat_.submit(r, done);
      return;
    }
    CpuSocket* cpu = &env_.cpu_near(*r.target);
    const Route* route = r.write ? &env_.route(*r.target, *r.storage) : &env_.route(*r.storage, *r.target);
    const std::uint32_t id = begin({r, done, cpu, route, nullptr});
    cpu->spend(config_.control_cost / 2, [this, id] {
      storage_step(id, *io(id).first,
                   [this, id] { io(id).cpu->spend(config_.control_cost / 2, [this, id] { finish(id); }); });
    });
  }

  std::string note() const override {
    return unaligned_ ? fmt::format("{} I/Os were not 4 KiB aligned and took cuFile's compat path", unaligned_) : "";
  }

private:
  Config config_;
  CompatPath compat_;
  std::uint64_t unaligned_ = 0;
};

IOWALL_REGISTER_PATH(GpuDirectPath, "gpu_direct", "cuFile with P2P DMA: storage DMAs straight into GPU memory");

}  // namespace iowall
