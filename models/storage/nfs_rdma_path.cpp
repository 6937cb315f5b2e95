// nfs_rdma: GPUDirect Storage over NFS with RPC-over-RDMA (NFSv3 / v4.1, RFC 8166), as
// GDS reads and writes files on an NFS mount. One client I/O:
//   1. is cut into READ (WRITE) RPCs of at most rsize (wsize) bytes (models/storage/nfs_rpcs);
//   2. each RPC goes to one of nconnect connections, round-robin as the Linux client
//      spreads RPC tasks over its transports, and waits there for one of max_slots RPC
//      slots (the sunrpc slot table / RPC-over-RDMA credits): never more than
//      nconnect x max_slots RPCs in flight;
//   3. is carried like an NVMe-oF command over RDMA (models/nvmeof/nvmeof_rdma): the call
//      is a small SEND; it waits for one of the server's nfsd_threads, which holds it
//      until the reply is posted (a read from the drives or a stable write's drive write
//      included: nfsd blocks in the file system); the server spends server_rpc_cost of
//      CPU on it, half on the call and half on the reply; the data comes from the server's page cache (a
//      share server_cache_hit_ratio of READs) or from its drives through their NVMe
//      queues; the server moves it by RDMA WRITE (READ) or RDMA READ (WRITE) straight
//      into/out of GPU memory ("buffer": "gpu", GPUDirect RDMA) or a host bounce buffer;
//      the reply is a SEND behind the data;
//   4. the I/O completes with its last RPC.
// The export is a file striped over the server's drives in rsize chunks (RAID0-like,
// assumption): RPC k of the data set lands on drive k mod drives. Writes are stable
// (FILE_SYNC, each reaches the drive; assumption: no COMMIT batching). The call and reply
// travel with the NVMe-oF capsule sizes (64 B and 16 B against ~100-200 B of RPC
// headers): negligible beside 1 MiB of payload. This path sets the transport's
// target_cost (to server_rpc_cost) and qp_depth (to nconnect x max_slots: one queue
// pair per client device and drive stands in for the nconnect connections, and the slot
// tables bound what it carries), so those two keys are refused here.
#include <fmt/format.h>

#include "models/storage/nfs_rpcs.hpp"
#include "models/storage/split_io_path.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/token_pool.hpp"

namespace iowall::storage {

class NfsRdmaPath final : public SplitIoPath {
public:
  struct Config : ParamSet {
    using ParamSet::ParamSet;
    IOWALL_PARAM(std::string, drives, "all", kDrivesDescription, kDrivesSource);
    IOWALL_PARAM(Bytes, rsize, "1 MiB", "largest READ RPC payload (mount option rsize): a multiple of 4 KiB",
                 "Linux nfs(5) rsize; 1 MiB is the usual maximum negotiated by Linux servers");
    IOWALL_PARAM(Bytes, wsize, "1 MiB", "largest WRITE RPC payload (mount option wsize): a multiple of 4 KiB",
                 "Linux nfs(5) wsize; 1 MiB is the usual maximum negotiated by Linux servers");
    IOWALL_PARAM_INT(nconnect, 1, 1, 16, "connections (transports) to the server; RPCs go to them round-robin",
                     "Linux nfs(5) nconnect: default 1, at most 16");
    IOWALL_PARAM_INT(max_slots, 128, 1, 65536, "RPC slots per connection: calls one connection keeps in flight",
                     "Linux sunrpc slot table (tcp_max_slot_table_entries-like) and RPC-over-RDMA credits "
                     "(RFC 8166; xprtrdma's default of 128 requests)");
    IOWALL_PARAM(Time, server_rpc_cost, "10 us",
                 "NFS server CPU per READ/WRITE RPC: decode, file system and page lookups, posting the RDMA "
                 "transfer and the reply (nfsd with svcrdma)",
                 "assumption: order of magnitude of a kernel nfsd over RDMA; calibrate");
    IOWALL_PARAM_INT(nfsd_threads, 8, 1, 65536,
                     "server nfsd threads: an RPC holds one from its arrival until its reply is posted, the file "
                     "system's reads and a stable write's drive write included",
                     "nfs-utils default: 8 threads (nfs.conf [nfsd] threads, RPCNFSDCOUNT)");
    IOWALL_PARAM_NUMBER(server_cache_hit_ratio, 0.0, 0.0, 1.0,
                        "share of READ RPCs the server serves from its page cache (no drive access), 0 to 1",
                        "assumption: 0, a cold data set larger than the server's memory");
  };
  static void describe(const Params& p) {
    (void)Config(p);
    nvmeof::describe_transport(p, "rdma");
  }

  NfsRdmaPath(const Params& p, PathEnv& env) : NfsRdmaPath(p, env, checked(p, Config(p))) {}

  void submit(const IoRequest& r, Done done) override {
    const std::uint32_t id = begin({r, done, nullptr, nullptr, nullptr});
    const Bytes max = r.write ? config_.wsize : config_.rsize;
    const i64 n = rpc_count(r.size, max);
    expect(id, static_cast<int>(n));
    // Small captures: the callback holds 24 bytes.
    for (std::uint32_t k = 0; k < static_cast<std::uint32_t>(n); ++k) {
      const auto c = static_cast<std::uint32_t>(next_connection_++ % slots_.size());
      slots_[c].acquire([this, id, k, c] { send_rpc(id, k, c); });
    }
  }

private:
  NfsRdmaPath(const Params& p, PathEnv& env, const Config& c)
      : SplitIoPath(transport_params(p, c), env, c.drives, "drives", "rdma"), config_(c),
        hits_(c.server_cache_hit_ratio) {
    slots_.assign(static_cast<std::size_t>(c.nconnect), TokenPool(static_cast<int>(c.max_slots)));
    env.ctx.stats().add("nfs_client/rpcs_in_flight", "RPCs", "READ/WRITE RPCs in flight, all connections",
                        in_flight_);
    env.ctx.stats().add("nfs_client/rpcs", "RPCs", "READ/WRITE RPCs sent", rpcs_);
    env.ctx.stats().add("nfs_server/cache_hits", "RPCs", "READ RPCs served from the server's page cache",
                        cache_hits_);
  }

  static const Config& checked(const Params& p, const Config& c) {
    for (const auto& [key, size] : {std::pair{"rsize", c.rsize}, std::pair{"wsize", c.wsize}})
      if (!size.is_positive() || !size.is_multiple_of(Bytes(4096)))
        p.fail(key, fmt::format("{} is not a positive multiple of 4 KiB", to_string(size)));
    if (!(c.server_cache_hit_ratio >= 0.0 && c.server_cache_hit_ratio <= 1.0))
      p.fail("server_cache_hit_ratio", fmt::format("{} is not between 0 and 1", c.server_cache_hit_ratio));
    return c;
  }

  // The NVMe-oF transport's parameters as this path sets them.
  static Params transport_params(const Params& p, const Config& c) {
    if (p.json().contains("target_cost")) p.fail("target_cost", "nfs_rdma sets the server's CPU per RPC: use server_rpc_cost");
    if (p.json().contains("qp_depth")) p.fail("qp_depth", "nfs_rdma sizes its connections: use nconnect and max_slots");
    if (p.json().contains("target_threads")) p.fail("target_threads", "nfs_rdma sets the server's threads: use nfsd_threads");
    // The cost goes to the transport's parameters as text in whole picoseconds (exact).
    return p.with("target_cost", fmt::format("{} ps", c.server_rpc_cost.whole_ps()))
        .with("qp_depth", c.nconnect * c.max_slots)
        .with("target_threads", c.nfsd_threads);
  }

  void send_rpc(std::uint32_t id, std::uint32_t k, std::uint32_t connection) {
    const IoRequest& r = io(id).io;
    const Bytes max = r.write ? config_.wsize : config_.rsize;
    const RpcPiece piece = rpc_piece(r.offset, r.size, max, k);
    // RAID0 over the drives in chunks of `max`: chunk c on drive c mod n, row c / n.
    const i64 chunk = piece.offset / max, n = static_cast<i64>(drives_.size());
    const auto drive = static_cast<std::size_t>(chunk % n);
    const Bytes at = max * (chunk / n) + piece.offset % max;
    const bool hit = !r.write && hits_.next();
    rpcs_.add();
    if (hit) cache_hits_.add();
    in_flight_.add(env_.ctx.now(), 1);
    start_piece(id, drive, on_drive(drive, at, Bytes(4096)), piece.size, [this, id, connection] {
      in_flight_.add(env_.ctx.now(), -1);
      slots_[connection].release();
      piece_done(id);
    }, hit);
  }

  Config config_;
  CacheHitPattern hits_;
  std::vector<TokenPool> slots_;  // by connection: max_slots each
  std::size_t next_connection_ = 0;
  TimeWeighted in_flight_;
  Counter rpcs_, cache_hits_;
};

namespace {
const detail::PathRegistrar registrar{
    "nfs_rdma",
    "GDS over NFS with RPC-over-RDMA: rsize/wsize RPCs over nconnect connections of max_slots slots, nfsd CPU per "
    "RPC, the server's page cache or drives, RDMA into GPU memory or a bounce buffer",
    __FILE__,
    [](const Params& p, PathEnv& env) -> std::unique_ptr<DataPath> { return std::make_unique<NfsRdmaPath>(p, env); },
    [](const Params& p) { NfsRdmaPath::describe(p); }};
}  // namespace

}  // namespace iowall::storage
