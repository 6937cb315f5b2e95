// What the NVMe-oF data paths share: the client (initiator) and the target server it
// reaches over a network link, resolved once per (client device, SSD) pair; the
// initiator's and target's per-I/O CPU costs; and the final step of a bounce path, a
// cudaMemcpy between the client's host memory and the GPU. A transport that does not
// model writes refuses them with a clear message.
#pragma once
#include <map>
#include <memory>
#include <vector>

#include "models/host/cpu_socket.hpp"
#include "models/host/dram.hpp"
#include "models/nvmeof/fabric_route.hpp"
#include "models/paths/path_base.hpp"
#include "sim/core/token_pool.hpp"

namespace iowall::nvmeof {

// The two nodes one I/O involves.
struct Endpoints {
  Device* client = nullptr;   // the I/O's target: a GPU, or host memory
  Nic* client_nic = nullptr;
  Nic* target_nic = nullptr;
  CpuSocket* client_cpu = nullptr;
  CpuSocket* target_cpu = nullptr;
  Dram* client_queues = nullptr;  // host memory nearest the client NIC: queues, capsules
  Dram* bounce = nullptr;         // host memory nearest the client device: bounce buffers
  Dram* target_queues = nullptr;  // host memory nearest the target NIC
  Dram* target_data = nullptr;    // host memory nearest the SSD: where it DMAs the data
};

// The parameters every NVMe-oF transport takes (a transport's Config derives from it).
struct CommonConfig : ParamSet {
  using ParamSet::ParamSet;
  IOWALL_PARAM(std::string, nic, "nearest",
               "client NIC: nearest (the NIC with a network link fewest PCIe hops from the GPU, same switch "
               "first), paired (GPU i of a node uses its i-th NIC with a network link: rail i of a rail-optimized cluster) "
               "or a NIC id",
               "seed 001: multi-rail steering picks the NIC closest to the GPU; paired: NVIDIA DGX SuperPOD reference "
               "architecture (GPU i's traffic on rail i)");
  // Placement inside the client node (which socket does the work, where a bounce
  // buffer lives). The defaults follow first touch: the thread runs, and allocates its
  // buffer, on the socket nearest the GPU it serves.
  IOWALL_PARAM(std::string, cpu, "gpu",
               "socket whose cores run the client's per-I/O work (submission, completion, copy launches): gpu (the "
               "socket nearest the I/O's GPU or memory), nic (nearest the client NIC) or a cpu_socket id",
               "Linux scheduler: a thread pinned with numactl/taskset runs there; unpinned benchmark threads "
               "usually follow their GPU (gdsio, NCCL bind to the GPU's NUMA node)");
  IOWALL_PARAM(std::string, target_nic, "nearest",
               "the server NIC a client NIC reaches through a switch: nearest (the one fewest PCIe hops from the "
               "data), paired (client NIC i of its node uses server NIC i mod the server's count: one mount per "
               "client port, spread over the server's addresses) or a NIC id",
               "a mount connects to one server address (nfs(5) addr=, nvme connect -a): which port serves it is the "
               "administrator's choice");
  IOWALL_PARAM(std::string, bounce_memory, "gpu",
               "host memory holding the bounce buffers of a host-buffered read or write: gpu (the memory nearest "
               "the GPU), nic (nearest the client NIC) or a dram id",
               "Linux first-touch NUMA policy: a buffer lands on the node of the thread that first writes it "
               "(numa(7)); cudaHostAlloc pins it where it was allocated");
  IOWALL_PARAM(Time, initiator_submit, "2 us", "client CPU time to submit one I/O (block layer, NVMe-oF host driver)",
               "assumption: as psync's submit cost (models/host/io_stack.hpp); calibrate");
  IOWALL_PARAM(Time, initiator_complete, "2 us", "client CPU time to complete one I/O (completion, wake-up)",
               "assumption: as psync's complete cost (models/host/io_stack.hpp); calibrate");
  IOWALL_PARAM(Time, target_cost, "2 us",
               "target CPU time per I/O: parse the command capsule, submit to the SSD, post the response",
               "assumption, order of magnitude of a kernel nvmet or SPDK target; calibrate");
  IOWALL_PARAM_CHOICE(receive, "concurrent", (std::vector<std::string>{"concurrent", "per_connection"}),
                      "how the target takes commands off a connection: concurrent (each as it arrives: nvmet and "
                      "SPDK poll or complete per queue) or per_connection (one at a time per client connection: "
                      "the next is taken once the current one's first half of target_cost is spent, a service "
                      "thread included; set by nfs_rdma's xprt_busy)",
                      "Linux sunrpc: svc_xprt_enqueue takes a transport only while XPT_BUSY is clear, and before "
                      "5.13 it was cleared after xpo_recvfrom returned (C. Lever, 'SUNRPC: Move svc_xprt_received() "
                      "call sites', linux-nfs, March 2021)");
  IOWALL_PARAM_INT(target_threads, 0, 0, 65536,
                   "target service threads: a command holds one from its arrival until its reply is posted, "
                   "waiting drive accesses included; 0: the target never waits for a thread",
                   "Linux nvmet and SPDK serve commands asynchronously (softirq, workqueues, pollers): 0; a file "
                   "server's threads (nfsd) block in the file system (set by nfs_rdma)");
  // Kernel threads an I/O is handed to (a workqueue's worker woken for it), beyond the
  // thread that submits it and the interrupt that completes it: each costs the CPU a
  // wake-up and a context switch (handoff_cost), and its work waits for them. A side that
  // hands completions to threads takes them by interrupt on a core that may be asleep:
  // the first hand-off after an arrival waits for that core's exit from its idle state
  // (models/host/cpu_socket.hpp IdleCore; none where the socket has no idle_states).
  IOWALL_PARAM_INT(initiator_handoffs, 0, 0, 16,
                   "client kernel threads each I/O is handed to: the first runs its submission, the others its "
                   "completion after the response's interrupt; 0: submitted in the caller, completed in softirq",
                   "Linux nvme-rdma and nvme-tcp submit in the caller and complete in softirq (0); set by nfs_rdma "
                   "for sunrpc");
  IOWALL_PARAM_INT(target_handoffs, 0, 0, 16,
                   "target kernel threads each command is handed to after its arrival's interrupt, before it is "
                   "received; 0: a polling target (SPDK) or one that receives in softirq",
                   "SPDK polls; set by nfs_rdma for svcrdma");
  IOWALL_PARAM(Time, handoff_cost, "1.31 us",
               "one hand-off to a kernel thread on the same core: the wake-up and the context switch",
               "scripts/probe-wakeup.c: a futex wake-up and switch between two threads pinned to one core, median "
               "of 15 runs of 200,000 round trips on an x86 KVM guest, 1.02-1.58 us (reports/calibration/wakeup/)");
  IOWALL_PARAM(Time, copy_launch_cost, "3 us", "client CPU time to launch and synchronize one cudaMemcpyAsync",
               "as cpu_gpu's copy_launch_cost: order of magnitude of CUDA API overhead");
};

// A transport's per-connection state (queue pairs, joined routes), built once per
// endpoints, and which one each in-flight I/O uses.
template <typename Connection>
class ConnectionTable {
public:
  Connection* find(const Endpoints& e) {
    const auto it = built_.find(&e);
    return it == built_.end() ? nullptr : it->second.get();
  }
  Connection& add(const Endpoints& e, std::unique_ptr<Connection> c) { return *(built_[&e] = std::move(c)); }
  void bind(std::uint32_t io, Connection& c) {
    if (by_io_.size() <= io) by_io_.resize(io + 1);
    by_io_[io] = &c;
  }
  Connection& operator[](std::uint32_t io) const { return *by_io_[io]; }

private:
  std::map<const Endpoints*, std::unique_ptr<Connection>> built_;
  std::vector<Connection*> by_io_;
};

class NvmeofPath : public PathBase {
protected:
  NvmeofPath(const CommonConfig& common, PathEnv& env);
  // The endpoints of `r` (checked and cached); InputError when the client cannot reach
  // the SSD through a NIC, or for a write the transport does not model.
  const Endpoints& endpoints(const IoRequest& r);
  // Whether the data lands in host memory first and is then copied into the GPU.
  bool bounces(const IoRequest& r) const { return r.target->model() == "gpu" && !direct_to_gpu_; }
  // The copy from the bounce buffer into the GPU (reads), then finish.
  void copy_to_gpu_then_finish(std::uint32_t id, const Endpoints& e);
  // The client's last step: its completion cost, the copy if a read bounces, then done.
  void client_completes(std::uint32_t id, const Endpoints& e);
  // The target's drive access for the I/O (storage_step), a Flush command's flush of the
  // store (IoRequest::flush), or none when the target serves
  // it from its memory (IoRequest::cached: a file server's page cache holds a read's data
  // or keeps an unstable write's); a write the server syncs (IoRequest::server_syncs) then
  // waits for an fsync of its store (a file system commits its journal, a drive flushes).
  void target_storage(std::uint32_t id, const Route& route, BlockStorage::Done then) {
    const IoRequest& r = io(id).io;
    if (r.flush) return r.storage->flush(then, r.flush_scope);
    if (r.cached) return then();
    if (!(r.write && r.server_syncs)) return storage_step(id, route, then);
    if (after_sync_.size() <= id) after_sync_.resize(id + 1);
    after_sync_[id] = std::move(then);
    storage_step(id, route, [this, id] { io(id).io.storage->flush(after_sync_[id], SyncScope::file); });
  }
  Device& landing(const Endpoints& e, const IoRequest& r) const {
    return bounces(r) ? static_cast<Device&>(*e.bounce) : *e.client;
  }

  // A command has reached the target: taken off its connection as `receive` says, it
  // holds a service thread (target_acquire) and the target CPU spends the first half of
  // target_cost on it; then command_received(id), the transport's next step.
  void receive_command(std::uint32_t id, const Endpoints& e);
  virtual void command_received(std::uint32_t id) = 0;
  // A command's hold on one of the target's service threads (target_threads): `then`
  // once it has one; target_release when its reply is posted. A command that shares
  // another's thread (IoRequest::shares_thread) takes none.
  void target_acquire(std::uint32_t id, const Endpoints& e, InlineFunction<void()> then);
  void target_release(std::uint32_t id, const Endpoints& e);

  // The socket that runs the client's work and the memory that holds its bounce buffers
  // (the "cpu" and "bounce_memory" keys).
  CpuSocket& placed_cpu(const Device& target, const Nic& nic);
  Dram& placed_memory(const Device& target, const Nic& nic);

  // The cores that take a client connection's completions at its two ends (one completion
  // queue and its interrupt vector each), by client NIC and IoRequest::connection as the
  // receipts are: a mount's RPCs share them whichever drive serves each.
  struct CompletionCores {
    IdleCore client, target;
  };
  CompletionCores& completion_cores(const Endpoints& e, int connection) {
    return completion_cores_[{e.client_nic, connection}];
  }

  CommonConfig common_;
  std::vector<BlockStorage::Done> after_sync_;  // by I/O: what follows its server's fsync
  bool direct_to_gpu_ = true;  // GPUDirect RDMA; false: through a host bounce buffer
  bool models_writes_ = false;

private:
  Device& placed(const std::string& key, const std::string& choice, const char* model, const Device& target,
                 const Nic& nic);
  std::map<std::pair<const Device*, const Device*>, std::unique_ptr<Endpoints>> endpoints_;
  struct ServiceThreads {
    explicit ServiceThreads(int n) : pool(n) {}
    TokenPool pool;
    TimeWeighted busy;
  };
  std::map<const CpuSocket*, std::unique_ptr<ServiceThreads>> threads_;  // by target socket
  // receive per_connection: a connection's receipt, one command at a time, by client NIC
  // and IoRequest::connection. One path is one mount per client port: its connection is
  // one server transport whichever server port ("target_nic") a call arrives on.
  struct Receiver {
    TokenPool gate{1};
    TimeWeighted busy;
  };
  Receiver& receiver(const Endpoints& e, int connection);
  void take_thread(std::uint32_t id);
  bool per_connection_ = false;
  std::map<std::pair<const Nic*, int>, std::unique_ptr<Receiver>> receivers_;
  std::map<std::pair<const Nic*, int>, CompletionCores> completion_cores_;
  struct Receipt {
    const Endpoints* e = nullptr;
    Receiver* receiver = nullptr;  // per_connection: the connection it holds
  };
  std::vector<Receipt> receipts_;  // by I/O
};

}  // namespace iowall::nvmeof

namespace iowall::nvmeof {

// The two transports, for the `nvmeof` path that picks one by its "transport" key.
std::unique_ptr<DataPath> make_rdma_path(const Params& p, PathEnv& env);
std::unique_ptr<DataPath> make_tcp_path(const Params& p, PathEnv& env);
void describe_rdma_path(const Params& p);
void describe_tcp_path(const Params& p);

// The "transport" key of a path that carries its requests over NVMe-oF machinery
// (nvmeof, the parallel file system, the object store, NFS over RDMA): `def` when absent.
struct TransportChoice : ParamSet {
  TransportChoice(const Params& p, const char* def) : ParamSet(p), default_transport(def) {}
  const char* default_transport;
  IOWALL_PARAM_CHOICE(transport, default_transport, (std::vector<std::string>{"rdma", "tcp"}),
                      "rdma: RoCEv2 or InfiniBand, as the network link is; tcp: NVMe/TCP over the same link",
                      "NVMe over Fabrics 1.1 transport bindings");
};
// The transport `p` names (`def` when absent).
std::unique_ptr<DataPath> make_transport(const Params& p, PathEnv& env, const char* def = "rdma");
// Documents the transport choice and the parameters of both transports (either may be
// chosen, so either's keys may be read).
void describe_transport(const Params& p, const char* def = "rdma");

}  // namespace iowall::nvmeof
