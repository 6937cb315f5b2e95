// The network part of a topology simulated per packet (models/net/fabric): NICs with a
// network link become hosts, ethernet switches become switches with their shared buffer,
// PFC and ECN, and every network link a full-duplex link at its rate and cable delay.
// Built once per run; RDMA connections open one flow per direction on it, which carries
// their messages in order under the senders' DCQCN. The totals (PAUSE frames, time
// paused, ECN marks, CNPs, drops, queue, per-flow rates) are published as statistics.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "models/net/fabric.hpp"
#include "models/rdma/nic.hpp"
#include "sim/run/data_path.hpp"

namespace iowall::nvmeof {

class PacketNetwork {
public:
  // InputError at `env`'s path pointer (or the switch's) for links it cannot simulate
  // or a PFC threshold whose headroom does not fit the buffer.
  PacketNetwork(PathEnv& env, const net::DcqcnConfig& dcqcn);
  ~PacketNetwork();

  // A message flow along `wire`, a NIC-to-NIC route of the topology. With `watch`,
  // the last egress before the receiver is sampled for its mean queue (once per run).
  int open(const Route& wire, bool watch = false);
  net::Fabric& fabric() { return *fabric_; }
  // Bytes of frames that carry `payload` (headers per packet of one path MTU; the
  // fabric adds preamble and gap itself).
  Bytes frame_bytes(Bytes payload) const;
  // One line for people; also copies the totals into the statistics (call after the run).
  std::string summary() const;

private:
  struct Published;
  int node_of(const std::string& device) const;

  std::unique_ptr<net::Fabric> fabric_;
  std::vector<std::pair<const Device*, int>> nodes_;  // topology device -> fabric node
  std::vector<std::pair<std::string, int>> flows_;    // "from>to" -> flow
  std::vector<int> switch_ports_, host_ports_;        // egress ports by kind of node
  WireFormat wire_;                                   // of the network links (RoCEv2)
  bool watching_ = false;
  std::unique_ptr<Published> published_;
};

}  // namespace iowall::nvmeof
