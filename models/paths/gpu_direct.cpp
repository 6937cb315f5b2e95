// gpu_direct: cuFile with peer-to-peer DMA. The CPU only runs cuFile's control plane
// (a fixed cost per I/O, half at submission and half at completion); the SSD DMAs
// straight into GPU memory through the switch. When the route from the drive to the
// target GPU would cross a root complex, cuFile stages the data instead through a
// bounce buffer in a GPU that shares the drive's switch (64 x 1 MiB per GPU) and then
// copies it to the target: by default as a peer copy without peer access, which the CUDA
// driver stages through host memory (device to host, then host to device, each a
// synchronous call), the bounce GPU's copies one at a time. An I/O whose offset or
// size is not 4 KiB aligned goes to compatibility mode. cuFile hands nvidia-fs at most
// max_direct_io_size per request: a larger I/O becomes pieces, each with its own control
// cost, up to max_request_parallelism at a time. With registration per I/O (a buffer
// registered and deregistered around every call) the CPU also pays cuFileBufRegister:
// a fixed cost plus a cost per 64 KiB GPU page.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <unordered_map>

#include "models/host/cpu_socket.hpp"
#include "models/paths/compat.hpp"
#include "sim/config/registry.hpp"
#include "models/paths/path_base.hpp"

namespace iowall {

class GpuDirectPath final : public PathBase {
public:
  struct Config : ParamSet {
    using ParamSet::ParamSet;
    IOWALL_PARAM(Time, control_cost, "8 us", "CPU time cuFile spends per I/O (submit, completion, bookkeeping)",
                 "order of magnitude from GDS design notes; calibrate with `iowall calibrate`");
    IOWALL_PARAM_CHOICE(staging, "auto", (std::vector<std::string>{"auto", "never"}),
                        "auto: stage through a GPU on the drive's switch when the direct route crosses a root "
                        "complex; never: always DMA directly",
                        "NVIDIA GDS configuration guide: cross-switch traffic is staged through a GPU near the drives");
    IOWALL_PARAM_CHOICE(staging_copy, "host", (std::vector<std::string>{"host", "peer"}),
                        "how a staged piece reaches the target GPU: host (the CUDA driver copies device to host "
                        "into its pinned staging memory, then host to device: a peer copy without peer access "
                        "enabled) or peer (cudaMemcpyPeer with peer access: NVLink or PCIe peer-to-peer)",
                        "CUDA programming guide: a peer copy between devices without peer access is staged "
                        "through host memory; NVIDIA GDS guide, DGX-2 cross-switch run: dcgmi shows the staged "
                        "data as PCIe traffic on both GPUs, not NVLink");
    IOWALL_PARAM_INT(staging_streams, 1, 1, 64, "staged copies in flight at a time per bounce GPU",
                     "assumption: cuFile issues the staged copies of a bounce GPU on one stream; in the GDS "
                     "guide's DGX-2 cross-switch runs the bounce buffers fill (63 of 64 in use) while the drives "
                     "idle, so I/Os wait for their copy, not for the drives");
    IOWALL_PARAM(Time, copy_call_cost, "6.6 us",
                 "time one synchronous cudaMemcpy call adds to its transfer (launch, copy-engine start, completion)",
                 "reports/calibration/gpu-machine/checkpoint-h200/copies: a 4 KiB pinned cudaMemcpy takes 6.6 us "
                 "(H200, CUDA 13)");
    IOWALL_PARAM_INT(bounce_buffers, 64, 1, 4096, "GDS bounce buffers per GPU",
                     "GDS buffer pool: 64 x 1 MiB per GPU (figures.md)");
    IOWALL_PARAM(Bytes, bounce_size, "1 MiB", "size of one GDS bounce buffer", "figures.md");
    IOWALL_PARAM(Bytes, max_direct_io_size, "16 MiB", "largest request cuFile hands nvidia-fs; larger I/Os split",
                 "cufile.json properties.max_direct_io_size_kb = 16384 (figures.md)");
    IOWALL_PARAM_INT(max_request_parallelism, 4, 1, 1024, "pieces of one split I/O in flight at a time",
                     "cufile.json execution.max_request_parallelism default 4");
    IOWALL_PARAM_CHOICE(registration, "once", (std::vector<std::string>{"once", "per_io"}),
                        "once: buffers registered before the I/Os (gdsio, frameworks); per_io: registered and "
                        "deregistered around every I/O",
                        "seed 001: registration persists for the CUDA context; per-I/O registration is the anti-pattern");
    IOWALL_PARAM(Time, register_fixed, "50 us", "cuFileBufRegister fixed cost (syscall, GPU page-table walk)",
                 "seed 001 (claim, not measured): 20-50 us regardless of size");
    IOWALL_PARAM(Time, register_per_page, "10 ns", "cuFileBufRegister cost per 64 KiB GPU page",
                 "seed 001 (claim): a 1 GB buffer registers in under 200 us, 16,384 pages");
    IOWALL_PARAM(Time, deregister_cost, "20 us", "cuFileBufDeregister cost (unpinning, invalidation)",
                 "assumption: of the order of the fixed registration cost");
  };
  GpuDirectPath(const Params& p, PathEnv& env)
      : PathBase(env), config_(p), compat_(Params(Json::object(), p.where()), env) {}

  bool takes_gpu_buffers() const override { return true; }

  void submit(const IoRequest& r, Done done) override {
    // GDS needs the file offset, the size and the GPU buffer 4 KiB aligned; otherwise
    // cuFile serves the I/O in compatibility mode (GDS docs, figures.md).
    if (!r.offset.is_multiple_of(Bytes(4096)) || !r.size.is_multiple_of(Bytes(4096))) {
      ++unaligned_;
      compat_.submit(r, done);
      return;
    }
    CpuSocket* cpu = &cpu_near(*r.target);
    const Route* route = r.write ? &env_.route(*r.target, r.storage->device()) : &env_.route(r.storage->device(), *r.target);
    Device* near = staging_for(*route, r.storage->device());
    const std::uint32_t id = begin({r, done, cpu, route, nullptr});
    const Time before = config_.control_cost / 2 + registration_cost(r.size);
    if (near && !r.write) {
      ++staged_;
      thread_spend(id, before, [this, id] { stage(id); });
      return;
    }
    if (r.size > config_.max_direct_io_size) {
      ++split_;
      thread_spend(id, before, [this, id] { split(id); });
      return;
    }
    thread_spend(id, before, [this, id] {
      storage_step(id, *io(id).first, [this, id] { complete(id); });
    });
  }

  std::string note() const override {
    std::string s;
    if (unaligned_) s += fmt::format("{} I/Os were not 4 KiB aligned and took cuFile's compat path", unaligned_);
    if (staged_) s += fmt::format("{}{} I/Os were staged through a GPU on the drive's switch", s.empty() ? "" : "; ", staged_);
    if (split_)
      s += fmt::format("{}{} I/Os were larger than max_direct_io_size ({}) and went to nvidia-fs in pieces",
                       s.empty() ? "" : "; ", split_, to_string(config_.max_direct_io_size));
    return s;
  }

private:
  struct Piece {
    std::uint32_t io;
    Bytes size;
    Device* near;
    Bytes offset;  // in the file
  };
  // The GPU to stage through for reads along `route` (null: direct), worked out once per route.
  Device* staging_for(const Route& route, const Device& storage) {
    if (!stage_auto_) return nullptr;
    const auto [it, fresh] = staging_of_.try_emplace(&route, nullptr);
    if (fresh && crosses_root_complex(route)) it->second = staging_gpu(storage);
    return it->second;
  }
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
  Time registration_cost(Bytes size) const {
    if (!register_per_io_) return Time{};
    return config_.register_fixed + config_.register_per_page * pieces_of(size, Bytes(kGpuPage));
  }
  void complete(std::uint32_t id) {
    const Time after = config_.control_cost / 2 + (register_per_io_ ? config_.deregister_cost : Time{});
    thread_spend(id, after, [this, id] { finish(id); });
  }
  // An I/O above max_direct_io_size: pieces in order, max_request_parallelism at a time;
  // each piece is one more call into nvidia-fs with its own control cost.
  static i64 pieces_of(Bytes size, Bytes piece) { return ceil_div(size, piece); }
  void split(std::uint32_t id) {
    const i64 n = pieces_of(io(id).io.size, config_.max_direct_io_size);
    if (left_.size() <= id) left_.resize(id + 1, 0);
    if (next_.size() <= id) next_.resize(id + 1, 0);
    left_[id] = n;
    next_[id] = 0;
    for (i64 k = 0; k < std::min(n, config_.max_request_parallelism); ++k) issue_piece(id);
  }
  void issue_piece(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    const i64 k = next_[id]++;
    const Bytes offset = r.offset + config_.max_direct_io_size * k;
    const Bytes size = std::min(config_.max_direct_io_size, r.size - config_.max_direct_io_size * k);
    const std::uint32_t piece = pieces_.acquire({id, size, nullptr, offset});
    // Every piece after the first is its own nvidia-fs call: a whole control cost.
    const Time cost = k == 0 ? Time{} : config_.control_cost;
    io(id).cpu->spend(cost, [this, piece] {
      const Piece& p = pieces_[piece];
      storage_part(io(p.io).io, p.offset, p.size, *io(p.io).first, [this, piece] { split_piece_done(piece); });
    });
  }
  void split_piece_done(std::uint32_t piece) {
    const std::uint32_t id = pieces_[piece].io;
    pieces_.release(piece);
    if (next_[id] < pieces_of(io(id).io.size, config_.max_direct_io_size)) issue_piece(id);
    if (--left_[id] == 0) complete(id);
  }
  // Reads staged through bounce buffers of the near GPU, one buffer per piece.
  void stage(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    Device* near = staging_gpu(r.storage->device());
    const i64 n = pieces_of(r.size, config_.bounce_size);
    if (left_.size() <= id) left_.resize(id + 1, 0);
    left_[id] = n;
    auto& pool = bounce_[near];
    if (!pool) pool = std::make_unique<TokenPool>(static_cast<int>(config_.bounce_buffers));
    for (i64 c = 0; c < n; ++c) {
      const Bytes size = std::min(config_.bounce_size, r.size - config_.bounce_size * c);
      const std::uint32_t piece = pieces_.acquire({id, size, near, r.offset + config_.bounce_size * c});
      pool->acquire([this, piece] { stage_piece(piece); });
    }
  }
  void stage_piece(std::uint32_t piece) {
    const Piece& p = pieces_[piece];
    const IoRequest& r = io(p.io).io;
    // The drive DMAs into the near GPU's bounce buffer, through its host-driven queues;
    // then the piece waits for the bounce GPU's copy stream.
    storage_part(r, p.offset, p.size, env_.route(r.storage->device(), *p.near), [this, piece] {
      stream_of(*pieces_[piece].near).pool.acquire([this, piece] {
        Stream& st = stream_of(*pieces_[piece].near);
        st.busy.add(env_.ctx.now(), 1);
        copy_piece(piece);
      });
    });
  }
  // One staged copy: a call on the bounce GPU's stream, then the transfer; through host
  // memory it is two calls (device to host into the driver's pinned staging memory near
  // the bounce GPU, then host to device).
  void copy_piece(std::uint32_t piece) {
    const Piece& q = pieces_[piece];
    auto* near = static_cast<Gpu*>(q.near);
    Device& target = *io(q.io).io.target;
    if (config_.staging_copy == "peer") {
      const Route& copy = env_.route(*near, target, {near->copy_engine_hop()});
      env_.ctx.in(config_.copy_call_cost, [this, piece, &copy] {
        env_.mover.send(copy, pieces_[piece].size, [this, piece] { copied(piece); });
      });
      return;
    }
    Dram& host = dram_near(*near);
    const Route& down = env_.route(*near, host, {near->copy_engine_hop()});
    env_.ctx.in(config_.copy_call_cost, [this, piece, &down] {
      env_.mover.send(down, pieces_[piece].size, [this, piece] {
        const Piece& c = pieces_[piece];
        auto* to = static_cast<Gpu*>(io(c.io).io.target);
        const Route& up = env_.route(dram_near(*c.near), *to, {to->copy_engine_hop()});
        env_.ctx.in(config_.copy_call_cost, [this, piece, &up] {
          env_.mover.send(up, pieces_[piece].size, [this, piece] { copied(piece); });
        });
      });
    });
  }
  void copied(std::uint32_t piece) {
    Stream& st = stream_of(*pieces_[piece].near);
    st.busy.add(env_.ctx.now(), -1);
    st.pool.release();
    piece_done(piece);
  }
  // A bounce GPU's staged copies: the stream they take turns on, and how busy it is (a
  // staged run is bound by it when the drives wait).
  struct Stream {
    explicit Stream(int n) : pool(n) {}
    TokenPool pool;
    TimeWeighted busy;
  };
  Stream& stream_of(const Device& near) {
    auto& st = streams_[&near];
    if (!st) {
      st = std::make_unique<Stream>(static_cast<int>(config_.staging_streams));
      env_.ctx.stats().add(near.name() + "/staged_copies/busy", "units",
                           "cuFile's staged copies from this bounce GPU in flight", st->busy, config_.staging_streams);
    }
    return *st;
  }
  void piece_done(std::uint32_t piece) {
    const std::uint32_t id = pieces_[piece].io;
    bounce_[pieces_[piece].near]->release();
    pieces_.release(piece);
    if (--left_[id] == 0) complete(id);
  }

  Config config_;
  const bool stage_auto_ = config_.staging == "auto", register_per_io_ = config_.registration == "per_io";
  std::unordered_map<const Route*, Device*> staging_of_;
  CompatPath compat_;
  static constexpr i64 kGpuPage = 64 * 1024;  // GPU pages registration pins
  std::uint64_t unaligned_ = 0, staged_ = 0, split_ = 0;
  std::map<const Device*, std::unique_ptr<TokenPool>> bounce_;
  std::map<const Device*, std::unique_ptr<Stream>> streams_;
  SlotPool<Piece> pieces_;
  std::vector<i64> left_, next_;  // by I/O: pieces not yet done, the next piece to issue
};

IOWALL_REGISTER_PATH(GpuDirectPath, "gpu_direct", "cuFile with P2P DMA: storage DMAs straight into GPU memory");

}  // namespace iowall
