// gpu_direct: cuFile with peer-to-peer DMA. The CPU only runs cuFile's control plane
// (a fixed cost per I/O, half at submission and half at completion); the SSD DMAs
// straight into GPU memory through the switch. When the route from the drive to the
// target GPU would cross a root complex, cuFile stages the data instead through a
// bounce buffer in a GPU that shares the drive's switch (64 x 1 MiB per GPU) and then
// copies it GPU to GPU (over NVLink where the topology has it). An I/O whose offset or
// size is not 4 KiB aligned goes to compatibility mode.
#include <fmt/format.h>

#include <map>
#include <memory>

#include "models/host/cpu_socket.hpp"
#include "models/paths/compat.hpp"
#include "sim/config/registry.hpp"
#include "sim/run/path_base.hpp"

namespace iowall {

class GpuDirectPath final : public PathBase {
public:
  struct Config {
    Time control_cost, peer_copy_cost;
    std::string staging;
    i64 bounce_buffers;
    Bytes bounce_size;
  };
  static Config read_config(const Params& p) {
    return {p.get_time("control_cost", "8 us", "CPU time cuFile spends per I/O (submit, completion, bookkeeping)",
                       "order of magnitude from GDS design notes; calibrate with `iowall calibrate`"),
            p.get_time("peer_copy_cost", "4 us", "CPU time to launch one staged GPU-to-GPU copy",
                       "order of magnitude of CUDA API overhead (assumption)"),
            p.get_choice("staging", "auto", {"auto", "never"},
                         "auto: stage through a GPU on the drive's switch when the direct route crosses a root "
                         "complex; never: always DMA directly",
                         "NVIDIA GDS configuration guide: cross-switch traffic is staged through a GPU near the drives"),
            p.get_int("bounce_buffers", 64, 1, 4096, "GDS bounce buffers per GPU", "GDS buffer pool: 64 x 1 MiB per GPU (figures.md)"),
            p.get_bytes("bounce_size", "1 MiB", "size of one GDS bounce buffer", "figures.md")};
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
    Device* near = config_.staging == "auto" && crosses_root_complex(*route) ? staging_gpu(*r.storage) : nullptr;
    const std::uint32_t id = begin({r, done, cpu, route, nullptr});
    if (near && !r.write) {
      ++staged_;
      cpu->spend(config_.control_cost / 2, [this, id] { stage(id); });
      return;
    }
    cpu->spend(config_.control_cost / 2, [this, id] {
      storage_step(id, *io(id).first, [this, id] { complete(id); });
    });
  }

  std::string note() const override {
    std::string s;
    if (unaligned_) s += fmt::format("{} I/Os were not 4 KiB aligned and took cuFile's compat path", unaligned_);
    if (staged_) s += fmt::format("{}{} I/Os were staged through a GPU on the drive's switch", s.empty() ? "" : "; ", staged_);
    return s;
  }

private:
  struct Piece {
    std::uint32_t io;
    Bytes size;
    Device* near;
  };
  bool crosses_root_complex(const Route& r) const {
    for (std::size_t i = 1; i + 1 < r.devices.size(); ++i)
      if (env_.topology.find(r.devices[i])->model() == "root_complex") return true;
    return false;
  }
  // A GPU whose route from the drive stays inside a switch (the nearest one).
  Device* staging_gpu(const Device& storage) {
    Device* best = nullptr;
    std::size_t hops = SIZE_MAX;
    for (Device* g : env_.topology.devices_of("gpu")) {
      const Route& r = env_.route(storage, *g);
      if (!crosses_root_complex(r) && r.devices.size() < hops) best = g, hops = r.devices.size();
    }
    return best;
  }
  void complete(std::uint32_t id) {
    io(id).cpu->spend(config_.control_cost / 2, [this, id] { finish(id); });
  }
  // Reads staged through bounce buffers of the near GPU, one buffer per piece.
  void stage(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    Device* near = staging_gpu(*r.storage);
    const i64 n = (r.size.n + config_.bounce_size.n - 1) / config_.bounce_size.n;
    if (left_.size() <= id) left_.resize(id + 1, 0);
    left_[id] = n;
    auto& pool = bounce_[near];
    if (!pool) pool = std::make_unique<TokenPool>(static_cast<int>(config_.bounce_buffers));
    for (i64 c = 0; c < n; ++c) {
      const Bytes size(std::min(config_.bounce_size.n, r.size.n - c * config_.bounce_size.n));
      const std::uint32_t piece = pieces_.acquire({id, size, near});
      pool->acquire([this, piece] { stage_piece(piece); });
    }
  }
  void stage_piece(std::uint32_t piece) {
    const Piece& p = pieces_[piece];
    const IoRequest& r = io(p.io).io;
    r.storage->read(p.size, env_.route(*r.storage, *p.near), env_.mover, [this, piece] {
      io(pieces_[piece].io).cpu->spend(config_.peer_copy_cost, [this, piece] {
        const Piece& q = pieces_[piece];
        auto* near = static_cast<Gpu*>(q.near);
        const Route& copy = env_.route(*near, *io(q.io).io.target, {near->copy_engine_hop()});
        env_.mover.send(copy, q.size, [this, piece] { piece_done(piece); });
      });
    });
  }
  void piece_done(std::uint32_t piece) {
    const std::uint32_t id = pieces_[piece].io;
    bounce_[pieces_[piece].near]->release();
    pieces_.release(piece);
    if (--left_[id] == 0) complete(id);
  }

  Config config_;
  CompatPath compat_;
  std::uint64_t unaligned_ = 0, staged_ = 0;
  std::map<const Device*, std::unique_ptr<TokenPool>> bounce_;
  SlotPool<Piece> pieces_;
  std::vector<i64> left_;
};

IOWALL_REGISTER_PATH(GpuDirectPath, "gpu_direct", "cuFile with P2P DMA: storage DMAs straight into GPU memory");

}  // namespace iowall
