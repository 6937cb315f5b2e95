// nvmeof_tcp: NVMe over Fabrics on TCP (NVMe/TCP). One read:
//   1. the initiator sends the 72 B command PDU (8 B header + 64 B SQE);
//   2. the target CPU parses it and reads from its SSD into host memory;
//   3. the target sends the data as a C2HData PDU and then the 24 B response PDU: its
//      cores process every byte (TCP/IP send path) at target_tcp_rate_per_core;
//   4. the client NIC DMAs the segments into socket buffers in host memory; a client
//      core processes and copies every byte into the user buffer at tcp_rate_per_core
//      (the copy also crosses host memory twice); for a GPU target a cudaMemcpy then
//      moves it into GPU memory: TCP cannot place data in the GPU.
// Segments pay Ethernet, IPv4 and TCP (with timestamps) headers per MTU; each PDU
// pays its 24 B header once. Seed 003: "about one core per 10 Gb/s".
// A segment is the unit each stage hands on: the target's stack builds a whole segment
// before the NIC sends it, and the client's stack processes a segment once it has all
// arrived, so a segment's send work, wire time and receive work follow one another;
// segments behind it pipeline through the stages. The data goes as its first segment
// stored and forwarded at both stack boundaries, then the rest cut through behind it:
// one segment's fill, then the narrowest stage's rate (a 4 KiB read is one segment,
// all three stages in series).
#include <algorithm>

#include "models/nvmeof/nvmeof_path.hpp"
#include "models/paths/host_copy.hpp"
#include "sim/config/registry.hpp"

namespace iowall::nvmeof {

class NvmeofTcpPath final : public NvmeofPath {
public:
  struct Config : CommonConfig {
    using CommonConfig::CommonConfig;
    IOWALL_PARAM(Bandwidth, tcp_rate_per_core, "10 Gb/s",
                 "bytes one client core receives per second: TCP/IP receive processing plus the copy "
                 "from socket buffers into the I/O buffer",
                 "seed 003: NVMe/TCP consumes about one core per 10 Gb/s");
    IOWALL_PARAM(Bandwidth, target_tcp_rate_per_core, "10 Gb/s",
                 "bytes one target core sends per second (TCP/IP send processing)",
                 "assumption: seed 003's one core per 10 Gb/s applied to the target");
    IOWALL_PARAM(Bytes, mtu, "9000 B", "Ethernet MTU of the TCP connection (IP packet size)",
                 "jumbo frames, usual on storage networks");
  };
  NvmeofTcpPath(const Params& p, PathEnv& env) : NvmeofTcpPath(Config(p), env) {}
  NvmeofTcpPath(const Config& c, PathEnv& env) : NvmeofPath(c, env), config_(c) {
    direct_to_gpu_ = false;
    if (!c.tcp_rate_per_core.is_positive() || !c.target_tcp_rate_per_core.is_positive())
      throw InputError(env.file, env.pointer, "the TCP rates per core must be positive");
    if (c.mtu <= Bytes(kIpTcpHeaders))
      throw InputError(env.file, env.pointer + "/mtu", "the MTU must be larger than the IP and TCP headers (52 B)");
    // Per segment: preamble, SFD and gap 20, Ethernet header and FCS 18, then IPv4 20
    // and TCP 32 (timestamps) inside the MTU; the 24 B PDU header once per PDU.
    segments_.max_payload = c.mtu.count() - kIpTcpHeaders;  // a WireFormat holds plain byte counts
    segments_.packet_overhead = 20 + 18 + kIpTcpHeaders;
    segments_.fixed_overhead = 24;
  }

  void submit(const IoRequest& r, Done done) override {
    const Endpoints& e = endpoints(r);
    Connection& c = connection(e, r);
    const std::uint32_t id = begin({r, done, e.client_cpu, nullptr, nullptr});
    if (arrivals_.size() <= id) arrivals_.resize(id + 1);
    conns_.bind(id, c);
    e.client_cpu->spend(common_.initiator_submit, [this, id] {
      env_.mover.send(conns_[id].command, kCommandPdu, [this, id] { command_arrived(id); });
    });
  }

private:
  struct Connection {
    const Endpoints* e;
    Route wire_to_target, wire_to_client, send_cores, receive_copy;
    Route command, first_segment, data, response;
  };
  static constexpr i64 kIpTcpHeaders = 20 + 32;
  static constexpr Bytes kCommandPdu{72}, kResponsePdu{24};

  // The network link's route with TCP segments for its wire format.
  Route tcp_wire(const Nic& from, const Nic& to) const {
    Route r = wire_route(env_, from, to);
    for (Hop& h : r.hops) {
      h.wire = &segments_;
      h.wire_read = nullptr;
      h.memo_ = {};  // its remembered service times were for RDMA packets
    }
    return r;
  }
  // CPU work per byte as a hop on the CPU's cores (and, for a copy, host memory).
  static Route cpu_per_byte(CpuSocket& cpu, Dram& dram, Bandwidth rate, bool copies) {
    Route r = memcpy_route(cpu, dram);
    r.hops[0].bandwidth = rate;
    if (!copies) r.hops.resize(1);
    return r;
  }

  Connection& connection(const Endpoints& e, const IoRequest& r) {
    if (Connection* built = conns_.find(e)) return *built;
    auto c = std::make_unique<Connection>();
    c->e = &e;
    Dram& user = static_cast<Dram&>(landing(e, r));
    c->wire_to_target = tcp_wire(*e.client_nic, *e.target_nic);
    c->wire_to_client = tcp_wire(*e.target_nic, *e.client_nic);
    c->send_cores = cpu_per_byte(*e.target_cpu, *e.target_data, config_.target_tcp_rate_per_core, false);
    c->receive_copy = cpu_per_byte(*e.client_cpu, user, config_.tcp_rate_per_core, true);
    c->command = across(env_, *e.client_queues, *e.client_nic, c->wire_to_target, *e.target_nic, *e.target_queues);
    // Segments land in socket buffers near the client NIC; a core then copies them out.
    const Route segments = across(env_, *e.target_data, *e.target_nic, c->wire_to_client, *e.client_nic, *e.client_queues);
    c->data = join_routes({{&c->send_cores}, {&segments}, {&c->receive_copy}});
    // The same with whole segments handed from the send stack to the NIC and from the
    // wire to the receive stack.
    Route handed = segments, received = c->receive_copy;
    handed.hops.front().store_and_forward = received.hops.front().store_and_forward = true;
    c->first_segment = join_routes({{&c->send_cores}, {&handed}, {&received}});
    c->response = across(env_, *e.target_queues, *e.target_nic, c->wire_to_client, *e.client_nic, *e.client_queues);
    return conns_.add(e, std::move(c));
  }

  void command_arrived(std::uint32_t id) { receive_command(id, *conns_[id].e); }

  void command_received(std::uint32_t id) override {
    target_storage(id, env_.route(io(id).io.storage->device(), *conns_[id].e->target_data), [this, id] {
      conns_[id].e->target_cpu->spend(common_.target_cost / 2, [this, id] {
        target_release(id, *conns_[id].e);
        send_data(id);
      });
    });
  }

  void send_data(std::uint32_t id) {
    const Connection& c = conns_[id];
    // The first segment carries the PDU's header beside its share of the data.
    const Bytes first = std::min(io(id).io.size, Bytes(segments_.max_payload - segments_.fixed_overhead));
    const Bytes rest = io(id).io.size - first;
    arrivals_[id] = rest.is_positive() ? 3 : 2;
    env_.mover.send(c.first_segment, first, [this, id] { arrived(id); });
    if (rest.is_positive()) env_.mover.send(c.data, rest, [this, id] { arrived(id); });
    env_.mover.send(c.response, kResponsePdu, [this, id] { arrived(id); });
  }

  // The I/O completes once its data is in the user buffer and its response is in.
  void arrived(std::uint32_t id) {
    if (--arrivals_[id] == 0) client_completes(id, *conns_[id].e);
  }

  Config config_;
  WireFormat segments_;
  ConnectionTable<Connection> conns_;
  std::vector<int> arrivals_;       // by I/O: data and response not yet in
};

IOWALL_REGISTER_PATH(NvmeofTcpPath, "nvmeof_tcp",
                     "NVMe-oF over TCP from a remote target: CPU per byte on both ends, a copy, then cudaMemcpy");


std::unique_ptr<DataPath> make_tcp_path(const Params& p, PathEnv& env) { return std::make_unique<NvmeofTcpPath>(p, env); }
void describe_tcp_path(const Params& p) { (void)NvmeofTcpPath::Config(p); }
}  // namespace iowall::nvmeof
