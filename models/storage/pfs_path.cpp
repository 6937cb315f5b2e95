// pfs: a Lustre-like parallel file system client. One client I/O:
//   1. the first I/O of a file opens it: open_client_cpu on the client, then an open RPC
//      crosses the fabric to the metadata server (MDS), waits for one of its service
//      threads (open_cost each), and the reply brings the layout back; the file's other
//      I/Os wait for it;
//   2. the I/O is cut at stripe boundaries (and at max_rpc_size) into RPCs, each to the
//      OST holding that stripe (models/storage/stripe_layout);
//   3. an RPC waits for one of its OST's max_rpcs_in_flight slots (the client's OSC
//      backpressure), then is carried like an NVMe-oF read: request, OSS CPU, the OST
//      drive's DMA into OSS memory, bulk RDMA WRITE (LNet o2iblnd) straight into GPU
//      memory (GDS over Lustre, "buffer": "gpu") or a host bounce buffer, and the reply;
//      over "transport": "tcp" (socklnd) every byte costs CPU on both ends;
//   4. the I/O completes with its last RPC.
// Each OST is one nvme_ssd on a storage server (OSS) with its own PCIe and NIC.
#include <fmt/format.h>

#include <unordered_map>

#include "models/nvmeof/fabric_route.hpp"
#include "models/storage/metadata_service.hpp"
#include "models/storage/split_io_path.hpp"
#include "models/storage/stripe_layout.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/token_pool.hpp"

namespace iowall::storage {

class PfsPath final : public SplitIoPath {
public:
  struct Config : ParamSet {
    using ParamSet::ParamSet;
    IOWALL_PARAM(std::string, osts, "all", kDrivesDescription, kDrivesSource);
    IOWALL_PARAM_INT(stripe_count, 1, 1, 65535, "OSTs each file is striped over",
                     "Lustre manual, lfs setstripe: default stripe_count 1");
    IOWALL_PARAM(Bytes, stripe_size, "1 MiB", "bytes per stripe: a multiple of 64 KiB",
                 "Lustre manual, lfs setstripe: default 1 MiB, a multiple of 64 KiB");
    IOWALL_PARAM(Bytes, file_size, "1 GiB",
                 "size of each file: the workload's bytes are consecutive files of this size, "
                 "each opened at the MDS by its first I/O",
                 "assumption: a data set of equal files");
    IOWALL_PARAM(Bytes, max_rpc_size, "1 MiB", "largest bulk RPC (osc max_pages_per_rpc x page size)",
                 "Lustre manual: max_pages_per_rpc, 256 pages of 4 KiB by default");
    IOWALL_PARAM_INT(max_rpcs_in_flight, 8, 1, 256, "RPCs a client keeps in flight to one OST",
                     "Lustre manual: osc max_rpcs_in_flight, default 8");
    IOWALL_PARAM(std::string, mds_nic, "", "the metadata server's NIC (its node serves opens)",
                 "scenario choice: a NIC of the topology");
    IOWALL_PARAM_INT(mds_threads, 32, 1, 4096, "MDS service threads serving opens at once",
                     "assumption: order of Lustre's mdt service thread count on a mid-size MDS");
    IOWALL_PARAM(Time, open_cost, "200 us", "MDS service time of one open (lookup, layout, lock)",
                 "assumption: 32 threads / 200 us = 160 k opens/s, the order of mdtest file-open rates "
                 "of one Lustre MDS");
    IOWALL_PARAM(Time, open_client_cpu, "20 us",
                 "client CPU per open: path lookup, the intent-lock RPC, unpacking the layout", "assumption");
  };
  static void describe(const Params& p) {
    (void)Config(p);
    nvmeof::describe_transport(p, "rdma");
  }

  PfsPath(const Params& p, PathEnv& env) : PfsPath(p, env, Config(p)) {}

  void submit(const IoRequest& r, Done done) override {
    const std::uint32_t id = begin({r, done, nullptr, nullptr, nullptr});
    const Bytes fs = layout_.file_size;
    if (r.offset % fs + r.size > fs)
      throw InputError(env_.file, env_.pointer + "/file_size",
                       fmt::format("a {} I/O at offset {} crosses the end of a {} file: file_size must be a multiple "
                                   "of the workload's io_size",
                                   to_string(r.size), to_string(r.offset), to_string(layout_.file_size)));
    File& f = files_[r.offset / fs];
    if (f.open) return send_rpcs(id);
    f.waiting.push_back(id);
    if (f.waiting.size() == 1) open_file(r.offset / fs, *r.target);
  }

private:
  PfsPath(const Params& p, PathEnv& env, const Config& c)
      : SplitIoPath(p, env, c.osts, "osts", "rdma"), config_(c) {
    StripeLayout& l = layout_;
    l.stripe_count = c.stripe_count;
    l.stripe_size = c.stripe_size;
    l.file_size = c.file_size;
    l.ost_count = static_cast<i64>(drives_.size());
    if (l.stripe_count > l.ost_count)
      p.fail("stripe_count", fmt::format("stripe_count {} is larger than the {} OSTs", l.stripe_count, l.ost_count));
    if (!l.stripe_size.is_positive() || !l.stripe_size.is_multiple_of(kStripeUnit))
      p.fail("stripe_size", fmt::format("{} is not a positive multiple of 64 KiB", to_string(l.stripe_size)));
    if (!l.file_size.is_positive()) p.fail("file_size", "the file size must be positive");
    if (!c.max_rpc_size.is_positive() || !c.max_rpc_size.is_multiple_of(Bytes(4096)))
      p.fail("max_rpc_size", fmt::format("{} is not a positive multiple of 4 KiB", to_string(c.max_rpc_size)));
    Device* mds = env.topology.find(c.mds_nic);
    if (!mds || mds->model() != "nic")
      p.fail("mds_nic", fmt::format("\"{}\" is not a nic of the topology (name the metadata server's NIC)", c.mds_nic));
    mds_nic_ = static_cast<Nic*>(mds);
    mds_ = std::make_unique<MetadataService>(env.ctx, c.mds_nic + "/mds", static_cast<int>(c.mds_threads), c.open_cost);
    in_flight_.resize(drives_.size());
    for (std::size_t i = 0; i < drives_.size(); ++i) {
      slots_.emplace_back(static_cast<int>(c.max_rpcs_in_flight));
      env.ctx.stats().add("pfs_client/" + drives_[i]->device().name() + "/rpcs_in_flight", "RPCs",
                          "RPCs in flight from the client to this OST", in_flight_[i]);
    }
  }

  static constexpr Bytes kStripeUnit{64 * 1024};
  // An open intent RPC and its reply carrying the layout (assumption: about 1 KiB each).
  static constexpr Bytes kOpenRequest{1024}, kOpenReply{1024};
  struct MdsRoutes {
    Route request, reply;
  };
  struct File {
    bool open = false;
    const MdsRoutes* routes = nullptr;
    std::vector<std::uint32_t> waiting;  // I/Os waiting for the layout
  };

  const MdsRoutes& mds_routes(const Device& client) {
    auto& slot = mds_routes_[&client];
    if (slot) return *slot;
    Nic& nic = nvmeof::choose_nic(env_, client, "nearest");
    Dram &here = dram_near(nic), &there = dram_near(*mds_nic_);
    slot = std::make_unique<MdsRoutes>(
        MdsRoutes{nvmeof::across(env_, here, nic, nvmeof::wire_route(env_, nic, *mds_nic_), *mds_nic_, there),
                  nvmeof::across(env_, there, *mds_nic_, nvmeof::wire_route(env_, *mds_nic_, nic), nic, here)});
    return *slot;
  }

  void open_file(i64 file, const Device& client) {
    files_[file].routes = &mds_routes(client);
    cpu_near(client).spend(config_.open_client_cpu, [this, file] {
      env_.mover.send(files_[file].routes->request, kOpenRequest, [this, file] {
        mds_->open([this, file] {
          env_.mover.send(files_[file].routes->reply, kOpenReply, [this, file] { opened(file); });
        });
      });
    });
  }

  void opened(i64 file) {
    File& f = files_[file];
    f.open = true;
    std::vector<std::uint32_t> ready;
    ready.swap(f.waiting);
    for (std::uint32_t id : ready) send_rpcs(id);
  }

  void send_rpcs(std::uint32_t id) {
    if (pieces_.size() <= id) pieces_.resize(id + 1);
    const IoRequest& r = io(id).io;
    const Bytes fs = layout_.file_size;
    split_io(layout_, r.offset / fs, r.offset % fs, r.size, config_.max_rpc_size, pieces_[id]);
    expect(id, static_cast<int>(pieces_[id].size()));
    for (std::uint32_t k = 0; k < pieces_[id].size(); ++k)
      slots_[static_cast<std::size_t>(pieces_[id][k].ost)].acquire([this, id, k] { send_rpc(id, k); });
  }

  void send_rpc(std::uint32_t id, std::uint32_t k) {
    const StripePiece& p = pieces_[id][k];
    const auto ost = static_cast<std::size_t>(p.ost);
    in_flight_[ost].add(env_.ctx.now(), 1);
    // The file's object on this OST lies after those of the files before it.
    const i64 file = io(id).io.offset / layout_.file_size;
    const Bytes at = on_drive(ost, layout_.object_size() * file + p.object_offset, layout_.stripe_size);
    start_piece(id, ost, at, p.size, [this, id, k] {
      const auto done_ost = static_cast<std::size_t>(pieces_[id][k].ost);
      in_flight_[done_ost].add(env_.ctx.now(), -1);
      slots_[done_ost].release();
      piece_done(id);
    });
  }

  Config config_;
  StripeLayout layout_;  // from the parameters and the OSTs
  Nic* mds_nic_ = nullptr;
  std::unique_ptr<MetadataService> mds_;
  std::map<const Device*, std::unique_ptr<MdsRoutes>> mds_routes_;
  std::unordered_map<i64, File> files_;
  std::vector<std::vector<StripePiece>> pieces_;  // by I/O
  std::vector<TokenPool> slots_;                  // by OST: max_rpcs_in_flight
  std::vector<TimeWeighted> in_flight_;           // by OST
};

namespace {
const detail::PathRegistrar pfs_path_registrar{
    "pfs",
    "Lustre-like parallel file system: MDS opens, files striped over OSTs on storage servers, per-OST RPCs over "
    "RDMA (into GPU memory or a bounce buffer) or TCP",
    __FILE__, [](const Params& p, PathEnv& env) -> std::unique_ptr<DataPath> { return std::make_unique<PfsPath>(p, env); },
    [](const Params& p) { PfsPath::describe(p); }};
}  // namespace

}  // namespace iowall::storage
