// nvmeof_rdma: NVMe over Fabrics on RDMA (RoCEv2 or InfiniBand: the network link's
// protocol). One read:
//   1. the initiator posts the 64 B command capsule as a SEND on its queue pair;
//   2. the target HCA lands it in a receive buffer, writes a CQE; the target CPU
//      (polling) parses it and submits the read to its NVMe SSD, which DMAs the data
//      into the target's host memory;
//   3. the target posts an RDMA WRITE of the data into the client's registered buffer
//      chained with a SEND of the 16 B response capsule (one doorbell, two WQEs);
//   4. the client HCA places the data: straight into GPU memory through the BAR
//      (GPUDirect RDMA, "buffer": "gpu") or into a host bounce buffer ("host") that a
//      cudaMemcpy then copies to the GPU; the response's CQE completes the I/O.
// A write carries its data in the command capsule up to inline_data_size; larger ones
// are fetched by the target with an RDMA READ of the client's buffer (GPU memory, or a
// bounce buffer the client first filled with a cudaMemcpy); the target writes its SSD,
// then SENDs the response.
// A side that hands I/Os to kernel threads (initiator_handoffs, target_handoffs: sunrpc
// and svcrdma for NFS) pays each hand-off's wake-up and switch on its CPU, and takes the
// arrival's interrupt on the connection's completion core: an idle one first leaves the
// idle state it entered (IdleCore), so a lone I/O waits for it and a busy queue does not.
// Every post goes through models/rdma's queue pair and HCA: doorbell, WQE fetch,
// translation lookups (a miss is a PCIe read), the engine, the data DMA and the CQE.
// With "fabric": "packet" the messages cross the network per packet (PacketNetwork:
// the switches' shared buffers, PFC and ECN, DCQCN at the sending NICs) between PCIe
// legs at both ends; by default the network links are served resources like PCIe's.
#include <fmt/format.h>

#include "models/gpu/gpu.hpp"
#include "models/nvmeof/nvmeof_path.hpp"
#include "models/nvmeof/packet_network.hpp"
#include "models/nvmeof/packet_wire.hpp"
#include "models/paths/host_copy.hpp"
#include "models/rdma/queue_pair.hpp"
#include "models/rdma/registration.hpp"
#include "sim/config/registry.hpp"

namespace iowall::nvmeof {

class NvmeofRdmaPath final : public NvmeofPath {
public:
  struct Config : CommonConfig {
    using CommonConfig::CommonConfig;
    IOWALL_PARAM_CHOICE(buffer, "gpu", (std::vector<std::string>{"gpu", "host"}),
                        "where the client HCA places read data: gpu (GPUDirect RDMA through the BAR) or host (a "
                        "bounce buffer, then cudaMemcpy)",
                        "NVIDIA GPUDirect RDMA documentation; seed 001");
    IOWALL_PARAM_CHOICE(registration, "once", (std::vector<std::string>{"once", "per_io"}),
                        "once: the client's I/O buffers are registered before the run; per_io: each I/O registers "
                        "and deregisters its buffer (ibv_reg_mr / ibv_dereg_mr) on the client CPU",
                        "seed 001: persistent registration vs registration per I/O");
    IOWALL_PARAM_INT(qp_depth, 128, 1, 65536, "send queue depth of each queue pair (max_send_wr)",
                     "Linux nvme-rdma: default queue_size 128");
    IOWALL_PARAM(Bytes, registered_memory, "1 GiB",
                 "client memory registered for I/O buffers; I/Os land at offset mod this size, so it sets "
                 "how many translation lines the HCA must cache",
                 "assumption: a data loader's buffer pool");
    IOWALL_PARAM(Bytes, inline_data_size, "4 KiB",
                 "writes up to this size carry their data in the command capsule (no RDMA READ); 0: none does "
                 "(the target port's param_inline_data_size set to 0)",
                 "Linux nvmet-rdma: inline_data_size defaults to one page");
    IOWALL_PARAM_CHOICE(fabric, "served", (std::vector<std::string>{"served", "packet"}),
                        "how the network is simulated: served (each link direction a queue with a rate, like "
                        "PCIe's) or packet (frames through the switches' shared buffers with PFC and ECN, DCQCN at "
                        "the senders; reads only)",
                        "models/net/fabric.hpp; reports/net.md");
    bool packet_fabric = fabric == "packet";
    // The NICs' congestion control, per-packet network only (models/net's own parameter
    // set). Steps are checked against each link's own rate where the network is built;
    // here only against the fastest Ethernet rate (IEEE 802.3dj, 1.6 Tb/s).
    net::DcqcnConfig dcqcn = net::DcqcnConfig::read(params(), Bandwidth::Gbps(1600));
  };
  NvmeofRdmaPath(const Params& p, PathEnv& env) : NvmeofRdmaPath(Config(p), env) {}
  NvmeofRdmaPath(const Config& c, PathEnv& env) : NvmeofPath(c, env), config_(c) {
    direct_to_gpu_ = c.buffer == "gpu";
    models_writes_ = true;
    if (!c.registered_memory.is_positive())
      throw InputError(env.file, env.pointer + "/registered_memory", "the registered memory must be positive");
  }

  // After the run: the per-packet network's totals (also published as statistics).
  std::string note() const override { return network_ ? network_->summary() : std::string(); }

  void submit(const IoRequest& r, Done done) override {
    if (r.write && config_.packet_fabric)
      throw InputError(env_.file, env_.pointer + "/fabric",
                       "the per-packet network simulates NVMe-oF reads only (the workload writes)");
    const Endpoints& e = endpoints(r);
    Connection& c = connection(e, r);
    const std::uint32_t id = begin({r, done, e.client_cpu, nullptr, nullptr});
    conns_.bind(id, c);
    // A server-local write moves no client buffer: nothing to register or fill.
    const bool buffer = !r.server_local;
    const Time reg = buffer && config_.registration == "per_io" ? c.registration.reg_time(r.size) : Time{};
    const Time copy = buffer && r.write && bounces(r) ? common_.copy_launch_cost : Time{};
    // The first hand-off runs the submission in a kernel thread.
    const Time handoff = common_.initiator_handoffs > 0 ? common_.handoff_cost : Time{};
    e.client_cpu->spend(common_.initiator_submit + reg + copy + handoff, [this, id] {
      const IoRequest& w = io(id).io;
      if (!w.write || !bounces(w) || w.server_local) return send_command(id);
      // The data goes from the GPU into the bounce buffer the HCA will read.
      env_.mover.send(gpu_copy_route(env_, static_cast<Gpu&>(*w.target), *conns_[id].e->bounce, false), w.size,
                      [this, id] { send_command(id); });
    });
  }

private:
  struct Connection {
    const Endpoints* e;
    rdma::Hca *client_hca, *target_hca;
    std::unique_ptr<rdma::QueuePair> client_qp, target_qp;
    Route command, data, response, write_data;
    const Route* read_request;  // an RDMA READ's request, target to client
    rdma::RegistrationCost registration;  // of the memory the data lands in
    // Per-packet network: the command, and the data with its response behind it.
    std::unique_ptr<PacketWire> command_wire, data_wire, response_wire;
  };
  static constexpr Bytes kCommand{64}, kResponse{16};  // NVMe SQE and CQE in capsules
  static constexpr Bytes kTargetPool{i64{1} << 30};     // the target's registered data buffers
  enum Region : std::uint32_t { kCapsules = 1, kTargetData, kTargetCapsules, kClientData };

  rdma::Hca& hca(Nic& nic, Dram& queues) {
    auto& slot = hcas_[&nic];
    if (!slot)
      slot = std::make_unique<rdma::Hca>(nic, env_.mover, nic.hca_config(), env_.route(queues, nic),
                                         env_.route(nic, queues));
    return *slot;
  }

  Connection& connection(const Endpoints& e, const IoRequest& r) {
    if (Connection* built = conns_.find(e)) return *built;
    auto c = std::make_unique<Connection>();
    c->e = &e;
    Device& land = landing(e, r);
    check_registration(land);
    c->registration = rdma::RegistrationCost::read(
        Params(Json::object(), {env_.file, env_.pointer}),
        land.model() == "gpu" ? rdma::MemoryKind::gpu : rdma::MemoryKind::host);
    c->client_hca = &hca(*e.client_nic, *e.client_queues);
    c->target_hca = &hca(*e.target_nic, *e.target_queues);
    c->client_qp = std::make_unique<rdma::QueuePair>(*c->client_hca, config_.qp_depth);
    c->target_qp = std::make_unique<rdma::QueuePair>(*c->target_hca, config_.qp_depth);
    const Route& to_target = wire_route(env_, *e.client_nic, *e.target_nic);
    const Route& to_client = wire_route(env_, *e.target_nic, *e.client_nic);
    c->command = across(env_, *e.client_queues, *e.client_nic, to_target, *e.target_nic, *e.target_queues);
    c->data = across(env_, *e.target_data, *e.target_nic, to_client, *e.client_nic, land);
    c->response = across(env_, *e.target_queues, *e.target_nic, to_client, *e.client_nic, *e.client_queues);
    c->write_data = across(env_, land, *e.client_nic, to_target, *e.target_nic, *e.target_data);
    c->read_request = &to_client;
    if (config_.packet_fabric) packet_wires(*c, land, to_target, to_client);
    return conns_.add(e, std::move(c));
  }

  // One flow per direction per connection (a queue pair's packets), built on the run's
  // per-packet network; the response shares the data's flow, so it lands behind it.
  void packet_wires(Connection& c, Device& land, const Route& to_target, const Route& to_client) {
    if (!network_) network_ = std::make_unique<PacketNetwork>(env_, config_.dcqcn);
    const Endpoints& e = *c.e;
    auto near = [&](Device& from, Nic& nic) {
      return join_routes({{&env_.route(from, nic), true, nic.pipeline_latency}});
    };
    const int commands = network_->open(to_target);
    const int data = network_->open(to_client, true);
    c.command_wire = std::make_unique<PacketWire>(env_.mover, *network_, commands, near(*e.client_queues, *e.client_nic),
                                                  env_.route(*e.target_nic, *e.target_queues),
                                                  e.target_nic->pipeline_latency);
    c.data_wire = std::make_unique<PacketWire>(env_.mover, *network_, data, near(*e.target_data, *e.target_nic),
                                               env_.route(*e.client_nic, land), e.client_nic->pipeline_latency);
    c.response_wire = std::make_unique<PacketWire>(env_.mover, *network_, data, near(*e.target_queues, *e.target_nic),
                                                   env_.route(*e.client_nic, *e.client_queues),
                                                   e.client_nic->pipeline_latency);
  }

  // Registering more memory than the device holds is bad input.
  void check_registration(const Device& land) const {
    const Bytes have = land.model() == "gpu" ? static_cast<const Gpu&>(land).hbm_capacity
                                             : static_cast<const Dram&>(land).capacity;
    if (config_.registered_memory > have)
      throw InputError(env_.file, env_.pointer + "/registered_memory",
                       fmt::format("cannot register {}: {} has only {}", to_string(config_.registered_memory),
                                   land.name(), to_string(have)));
  }

  rdma::MemoryRef client_buffer(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    const Connection& c = conns_[id];
    // Registration per I/O makes a new region (a new MPT entry) every time.
    const std::uint32_t region = config_.registration == "per_io" ? kClientData + 1 + (per_io_regions_++) : kClientData;
    return {region, r.offset % config_.registered_memory, c.registration.page_size};
  }

  // A write's data travels in the command capsule; a server-local write (IoRequest::
  // server_local) has none to carry.
  bool in_capsule(std::uint32_t id) {
    const IoRequest& r = io(id).io;
    return r.write && !r.server_local && r.size <= config_.inline_data_size;
  }
  bool fetches_data(std::uint32_t id) { return io(id).io.write && !io(id).io.server_local && !in_capsule(id); }
  static Bytes capsule_slot(std::uint32_t id) { return kCommand * (id % 1024); }
  // SPDK-style targets keep a pool of data buffers in 2 MiB huge pages.
  rdma::MemoryRef target_buffer(std::uint32_t id) {
    return {kTargetData, io(id).io.offset % kTargetPool, Bytes(2 << 20)};
  }

  void send_command(std::uint32_t id) {
    Connection& c = conns_[id];
    const Bytes slot = capsule_slot(id);
    const rdma::WorkRequest wr{.bytes = kCommand + (in_capsule(id) ? io(id).io.size : Bytes(0)),
                               .data = &c.command,
                               .local = {kCapsules, slot},
                               .remote = c.target_hca,
                               .remote_ref = {kTargetCapsules, slot},
                               .carrier = c.command_wire.get()};
    c.client_qp->post(wr, [this, id] { command_arrived(id); });
  }

  void command_arrived(std::uint32_t id) {
    Connection& c = conns_[id];
    env_.mover.call_at(c.target_hca->receive_cqe(env_.ctx.now()), [this, id] {
      if (common_.target_handoffs == 0) return receive_command(id, *conns_[id].e);
      arrived(id, Side::target);
    });
  }

  // An arrival handed to kernel threads: its interrupt on the connection's completion
  // core at that side, which may first leave an idle state, then the hand-offs' and the
  // side's own CPU there (a client's deregistration), then the next step.
  enum class Side : std::uint8_t { client, target };
  void arrived(std::uint32_t id, Side side) {
    Connection& c = conns_[id];
    const bool client = side == Side::client;
    CompletionCores& cores = completion_cores(*c.e, io(id).io.connection);
    const Time exit = (client ? cores.client : cores.target)
                          .wake(client ? *c.e->client_cpu : *c.e->target_cpu, env_.ctx.now(), 0);
    if (exit.is_zero()) return handoffs_run(id, side);
    env_.ctx.in(exit, [this, id, side] { handoffs_run(id, side); });
  }
  void handoffs_run(std::uint32_t id, Side side) {
    Connection& c = conns_[id];
    const bool client = side == Side::client;
    const Time work = client ? deregistration(id) + common_.handoff_cost * (common_.initiator_handoffs - 1)
                             : common_.handoff_cost * common_.target_handoffs;
    (client ? c.e->client_cpu : c.e->target_cpu)->spend(work, [this, id, side] {
      const Endpoints& e = *conns_[id].e;
      CompletionCores& cores = completion_cores(e, io(id).io.connection);
      if (side == Side::target) {
        cores.target.sleep(env_.ctx.now());
        return receive_command(id, e);
      }
      cores.client.sleep(env_.ctx.now());
      client_completes(id, e);
    });
  }
  // A client's deregistration of the I/O's buffer (registration per_io).
  Time deregistration(std::uint32_t id) {
    const bool buffer = !io(id).io.server_local;
    return buffer && config_.registration == "per_io" ? conns_[id].registration.dereg_time(io(id).io.size) : Time{};
  }

  void command_received(std::uint32_t id) override {
    if (fetches_data(id)) return fetch_data(id);
    access_ssd(id);
  }

  // The target HCA moving an I/O's data between its buffer and the client's along `route`.
  rdma::WorkRequest data_request(std::uint32_t id, const Route& route) {
    return {.bytes = io(id).io.size,
            .data = &route,
            .local = target_buffer(id),
            .remote = conns_[id].client_hca,
            .remote_ref = client_buffer(id)};
  }

  // A write's data, read from the client's buffer by the target HCA (RDMA READ).
  void fetch_data(std::uint32_t id) {
    Connection& c = conns_[id];
    rdma::WorkRequest wr = data_request(id, c.write_data);
    wr.request = c.read_request;
    c.target_qp->post(wr, [this, id] { access_ssd(id); });
  }

  void access_ssd(std::uint32_t id) {
    const Endpoints& e = *conns_[id].e;
    const IoRequest& r = io(id).io;
    const Route& route = r.write ? env_.route(*e.target_data, r.storage->device()) : env_.route(r.storage->device(), *e.target_data);
    target_storage(id, route, [this, id] {
      conns_[id].e->target_cpu->spend(common_.target_cost / 2, [this, id] {
        if (io(id).io.write) return send_response(id);
        send_data(id);
      });
    });
  }

  void send_response(std::uint32_t id) {
    Connection& c = conns_[id];
    target_release(id, *c.e);
    const rdma::WorkRequest wr{.bytes = kResponse,
                               .data = &c.response,
                               .local = {kTargetCapsules, capsule_slot(id)},
                               .remote = c.client_hca,
                               .remote_ref = {kCapsules, capsule_slot(id)}};
    c.target_qp->post(wr, [this, id] { response_arrived(id); });
  }

  void send_data(std::uint32_t id) {
    Connection& c = conns_[id];
    target_release(id, *c.e);
    // The RDMA WRITE and the response SEND behind it: one doorbell, two WQEs.
    rdma::WorkRequest wr = data_request(id, c.data);
    wr.followup = kResponse;
    wr.followup_route = &c.response;
    wr.wqes = 2;
    wr.carrier = c.data_wire.get();
    wr.followup_carrier = c.response_wire.get();
    c.target_qp->post(wr, [this, id] { response_arrived(id); });
  }

  void response_arrived(std::uint32_t id) {
    Connection& c = conns_[id];
    env_.mover.call_at(c.client_hca->receive_cqe(env_.ctx.now()), [this, id] {
      // The hand-offs after the first (which ran the submission) process the completion.
      if (common_.initiator_handoffs > 1) return arrived(id, Side::client);
      conns_[id].e->client_cpu->spend(deregistration(id), [this, id] { client_completes(id, *conns_[id].e); });
    });
  }

  Config config_;
  std::map<const Nic*, std::unique_ptr<rdma::Hca>> hcas_;
  ConnectionTable<Connection> conns_;
  std::uint32_t per_io_regions_ = 0;
  std::unique_ptr<PacketNetwork> network_;  // built by the first connection, with "fabric": "packet"
};

IOWALL_REGISTER_PATH(NvmeofRdmaPath, "nvmeof_rdma",
                     "NVMe-oF over RDMA from a remote target: GPUDirect RDMA into GPU memory or a host bounce buffer");

std::unique_ptr<DataPath> make_rdma_path(const Params& p, PathEnv& env) { return std::make_unique<NvmeofRdmaPath>(p, env); }
void describe_rdma_path(const Params& p) { (void)NvmeofRdmaPath::Config(p); }
}  // namespace iowall::nvmeof
