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
//      the reply is a SEND behind the data; a server kernel before 5.13 (xprt_busy
//      after_receive) takes a connection's next call only once the current one is
//      received (the first half of server_rpc_cost, a thread included: sunrpc's XPT_BUSY);
//   4. the I/O completes with its last RPC.
// The Linux client hands each RPC to kernel threads client_handoffs times (an async RPC
// task runs on rpciod; xprtrdma's Receive completion is processed in a workqueue; the
// reply wakes the task on rpciod again), and the server once (svcrdma's Receive completion
// in a workqueue, which queues the transport for nfsd): each a wake-up and a context switch
// (the transport's handoff_cost), the reply's and the call's interrupts taken on a
// completion core that may be asleep (nvmeof_rdma's hand-offs). nfsd's own wake-up is
// inside server_rpc_cost.
// The export is a file striped over the server's drives in rsize chunks (RAID0-like,
// assumption): RPC k of the data set lands on drive k mod drives. Or the path names one
// stacked store (an md RAID0 of the server's drives, the array the exported file
// system sits on): the array then places the bytes, and a COMMIT is one write to it,
// split over its members as writeback's bios are (one nfsd thread, as nfsd's). The
// server's NIC for a stacked store is the one nearest its first member.
// Writes, stable or not (RFC 1813 3.3.7, 3.3.21): a FILE_SYNC WRITE is on the drive
// before its reply (nfsd writes with RWF_SYNC); an UNSTABLE WRITE is replied once its
// data is in the server's page cache, and a COMMIT later writes it back (nfsd's
// vfs_fsync_range over the committed range) and replies when it is on the drives. The
// Linux client's O_DIRECT writes ask FILE_SYNC only when the whole I/O is one WRITE
// (FLUSH_COND_STABLE, dropped when the I/O needs more RPCs: fs/nfs/pagelist.c
// nfs_generic_pgio); otherwise they go UNSTABLE and the I/O ends with a COMMIT of its
// range (fs/nfs/direct.c). The COMMIT's writeback is carried as one server-local write
// per drive the I/O touched (its pieces on one drive are contiguous there), each with
// a call and a reply of a COMMIT's size, so the drives write in parallel as writeback
// does, under one nfsd thread (held by the largest share's command). Approximations:
// the extra calls and replies (64 B and 16 B each), and the server's own background
// writeback (dirty_background thresholds) does not start before the COMMIT (a server
// with memory to spare). The call and reply
// travel with the NVMe-oF capsule sizes (64 B and 16 B against ~100-200 B of RPC
// headers): negligible beside 1 MiB of payload. This path sets the transport's
// target_cost (to server_rpc_cost) and qp_depth (to nconnect x max_slots: one queue
// pair per client device and drive stands in for the nconnect connections, and the slot
// tables bound what it carries), so those two keys are refused here.
#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

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
    IOWALL_PARAM_INT(client_handoffs, 3, 0, 16,
                     "kernel threads the client hands each RPC to: its task run on rpciod, the Receive completion's "
                     "work, the task woken on rpciod for the reply",
                     "Linux net/sunrpc/sched.c rpc_execute (an RPC_TASK_ASYNC task is queued to rpciod_workqueue) "
                     "and rpc_wake_up_queued_task; net/sunrpc/xprtrdma/verbs.c allocates its completion queues "
                     "with IB_POLL_WORKQUEUE (ib_comp_wq) and its reply handler wakes the task (xprt_complete_rqst)");
    IOWALL_PARAM_INT(server_handoffs, 1, 0, 16,
                     "kernel threads the server hands each call to before an nfsd thread takes it: the Receive "
                     "completion's work",
                     "Linux net/sunrpc/xprtrdma/svc_rdma_transport.c allocates the receive completion queue with "
                     "IB_POLL_WORKQUEUE; svc_rdma_wc_receive queues the transport (svc_xprt_enqueue) for nfsd");
    IOWALL_PARAM_INT(nfsd_threads, 8, 1, 65536,
                     "server nfsd threads: an RPC holds one from its arrival until its reply is posted, the file "
                     "system's reads and a stable write's drive write included",
                     "nfs-utils default: 8 threads (nfs.conf [nfsd] threads, RPCNFSDCOUNT)");
    IOWALL_PARAM_CHOICE(write_stability, "cond_stable",
                        (std::vector<std::string>{"cond_stable", "file_sync", "unstable"}),
                        "how WRITEs are made durable: cond_stable (the Linux client's O_DIRECT rule: FILE_SYNC when "
                        "the I/O is one WRITE, otherwise UNSTABLE WRITEs and a COMMIT of the I/O), file_sync (every "
                        "WRITE FILE_SYNC: on the drive before its reply) or unstable (every I/O's WRITEs UNSTABLE, "
                        "then a COMMIT)",
                        "RFC 1813 3.3.7 (stable_how) and 3.3.21 (COMMIT); Linux fs/nfs/pagelist.c nfs_generic_pgio "
                        "drops FLUSH_COND_STABLE when an I/O needs more than one RPC; fs/nfs/direct.c commits the "
                        "O_DIRECT request's unstable writes before it completes");
    IOWALL_PARAM_CHOICE(xprt_busy, "at_dequeue", (std::vector<std::string>{"at_dequeue", "after_receive"}),
                        "when the server lets a connection's next call be taken: at_dequeue (as soon as a thread "
                        "takes the call off it: Linux 5.13 on, RPC-over-RDMA) or after_receive (once that thread "
                        "has received it: before 5.13, and sockets always; this path charges the first half of "
                        "server_rpc_cost there, so one connection takes at most 2 / server_rpc_cost calls a second)",
                        "Linux net/sunrpc/svc_xprt.c: XPT_BUSY keeps a transport from being taken again until "
                        "svc_xprt_received; C. Lever, 'SUNRPC: Move svc_xprt_received() call sites' and 'svcrdma: "
                        "Clean up dto_q critical section' (linux-nfs, March 2021, merged for 5.13) clear it as soon as "
                        "svc_rdma_recvfrom dequeues the Receive");
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
    if (unstable_.size() <= id) unstable_.resize(id + 1);
    unstable_[id] = r.write && (stability_ == Stability::unstable || (stability_ == Stability::cond_stable && n > 1));
    // An unstable I/O's WRITEs are its first round of pieces, its COMMIT's the second.
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
        hits_(c.server_cache_hit_ratio), stability_(stability_of(c.write_stability)) {
    slots_.assign(static_cast<std::size_t>(c.nconnect), TokenPool(static_cast<int>(c.max_slots)));
    env.ctx.stats().add("nfs_client/rpcs_in_flight", "RPCs", "READ/WRITE RPCs in flight, all connections",
                        in_flight_);
    env.ctx.stats().add("nfs_client/rpcs", "RPCs", "READ/WRITE RPCs sent", rpcs_);
    env.ctx.stats().add("nfs_server/cache_hits", "RPCs", "READ RPCs served from the server's page cache",
                        cache_hits_);
    env.ctx.stats().add("nfs_client/unstable_writes", "RPCs", "WRITE RPCs sent UNSTABLE (a COMMIT follows)",
                        unstable_writes_);
    env.ctx.stats().add("nfs_client/commits", "RPCs", "COMMITs (each I/O whose WRITEs were unstable)", commits_);
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
    // The transport's keys this path sets itself, each refused with the key to use instead.
    static constexpr std::pair<const char*, const char*> kSetHere[] = {
        {"target_cost", "nfs_rdma sets the server's CPU per RPC: use server_rpc_cost"},
        {"qp_depth", "nfs_rdma sizes its connections: use nconnect and max_slots"},
        {"target_threads", "nfs_rdma sets the server's threads: use nfsd_threads"},
        {"receive", "nfs_rdma sets how calls are received: use xprt_busy"},
        {"initiator_handoffs", "nfs_rdma sets the client's hand-offs: use client_handoffs"},
        {"target_handoffs", "nfs_rdma sets the server's hand-offs: use server_handoffs"},
    };
    for (const auto& [key, why] : kSetHere)
      if (p.json().contains(key)) p.fail(key, why);
    // NVMe/TCP would stand in for sunrpc over TCP without its per-RPC socket work: a public
    // 4 KiB curve ran 50.7k IOPS over TCP at iodepth 32 where that stand-in gives RDMA's 200k
    // (reports/nfs-placement.md). Refused rather than answered wrong.
    if (nvmeof::TransportChoice(p, "rdma").transport == "tcp")
      p.fail("transport", "NFS over TCP is not modelled: nfs_rdma is RPC-over-RDMA (RFC 8166); give rdma or leave it out");
    // The cost goes to the transport's parameters as text in whole picoseconds (exact).
    return p.with("target_cost", fmt::format("{} ps", c.server_rpc_cost.whole_ps()))
        .with("qp_depth", c.nconnect * c.max_slots)
        .with("target_threads", c.nfsd_threads)
        .with("receive", c.xprt_busy == "after_receive" ? "per_connection" : "concurrent")
        .with("initiator_handoffs", c.client_handoffs)
        .with("target_handoffs", c.server_handoffs);
  }

  // Where RPC piece `piece` (of RPCs of at most `max`) lies: RAID0 over the drives in
  // chunks of `max`, chunk c on drive c mod n at row c / n.
  struct Placed {
    std::size_t drive;
    Bytes at;
  };
  Placed place(const RpcPiece& piece, Bytes max) const {
    const i64 chunk = piece.offset / max, n = static_cast<i64>(drives_.size());
    const auto drive = static_cast<std::size_t>(chunk % n);
    return {drive, on_drive(drive, max * (chunk / n) + piece.offset % max, Bytes(4096))};
  }

  void send_rpc(std::uint32_t id, std::uint32_t k, std::uint32_t connection) {
    const IoRequest& r = io(id).io;
    const Bytes max = r.write ? config_.wsize : config_.rsize;
    const RpcPiece piece = rpc_piece(r.offset, r.size, max, k);
    const Placed p = place(piece, max);
    const bool unstable = unstable_[id];
    const bool hit = !r.write && hits_.next();
    rpcs_.add();
    if (hit) cache_hits_.add();
    if (unstable) unstable_writes_.add();
    in_flight_.add(env_.ctx.now(), 1);
    start_piece(id, p.drive, p.at, piece.size, [this, id, connection] {
      in_flight_.add(env_.ctx.now(), -1);
      slots_[connection].release();
      if (!unstable_[id]) return piece_done(id);
      if (last_piece_in(id)) commit(id);
    }, {.cached = hit || unstable, .syncs = r.write && !unstable, .connection = static_cast<int>(connection)});
  }

  // The COMMIT of an I/O whose WRITEs were unstable: the server writes each drive's share
  // of the I/O (contiguous on that drive) from its memory, in parallel.
  void commit(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    const Bytes max = config_.wsize;
    if (shares_.size() <= id) shares_.resize(id + 1);
    std::vector<Share>& shares = shares_[id];
    shares.clear();
    for (i64 k = 0, n = rpc_count(r.size, max); k < n; ++k) {
      const RpcPiece piece = rpc_piece(r.offset, r.size, max, k);
      const Placed p = place(piece, max);
      auto it = std::find_if(shares.begin(), shares.end(), [&](const Share& s) { return s.drive == p.drive; });
      if (it == shares.end())
        shares.push_back({p.drive, p.at, piece.size});
      else
        it->at = std::min(it->at, p.at), it->size += piece.size;
    }
    commits_.add();
    expect(id, static_cast<int>(shares.size()));
    // One nfsd thread runs the COMMIT: the largest share's command holds it (the shares
    // are written at once and the largest ends last), the others share it.
    const auto holder = static_cast<std::uint32_t>(
        std::max_element(shares.begin(), shares.end(), [](const Share& a, const Share& b) { return a.size < b.size; }) -
        shares.begin());
    for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(shares.size()); ++j) {
      const auto c = static_cast<std::uint32_t>(next_connection_++ % slots_.size());
      slots_[c].acquire([this, id, c, j, holder] {
        const Share& s = shares_[id][j];
        in_flight_.add(env_.ctx.now(), 1);
        start_piece(id, s.drive, s.at, s.size, [this, id, c] {
          in_flight_.add(env_.ctx.now(), -1);
          slots_[c].release();
          piece_done(id);
        }, {.server_local = true, .shares_thread = j != holder, .syncs = true, .connection = static_cast<int>(c)});
      });
    }
  }

  Config config_;
  CacheHitPattern hits_;
  std::vector<TokenPool> slots_;  // by connection: max_slots each
  std::size_t next_connection_ = 0;
  TimeWeighted in_flight_;
  Counter rpcs_, cache_hits_, unstable_writes_, commits_;
  // write_stability, resolved once.
  enum class Stability { cond_stable, file_sync, unstable };
  static Stability stability_of(const std::string& name) {
    return name == "unstable" ? Stability::unstable : name == "file_sync" ? Stability::file_sync : Stability::cond_stable;
  }
  Stability stability_;
  std::vector<char> unstable_;  // by I/O: its WRITEs are UNSTABLE and a COMMIT follows
  // A drive's share of a COMMIT: where the I/O's bytes start there and how many.
  struct Share {
    std::size_t drive;
    Bytes at, size;
  };
  std::vector<std::vector<Share>> shares_;  // by I/O: its COMMIT's shares
};

namespace {
const detail::PathRegistrar nfs_rdma_path_registrar{
    "nfs_rdma",
    "GDS over NFS with RPC-over-RDMA: rsize/wsize RPCs over nconnect connections of max_slots slots, nfsd CPU per "
    "RPC, the server's page cache or drives, RDMA into GPU memory or a bounce buffer",
    __FILE__,
    [](const Params& p, PathEnv& env) -> std::unique_ptr<DataPath> { return std::make_unique<NfsRdmaPath>(p, env); },
    [](const Params& p) { NfsRdmaPath::describe(p); }};
}  // namespace

}  // namespace iowall::storage
