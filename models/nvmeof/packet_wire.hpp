// An RDMA message's bytes through the per-packet network: a PCIe leg from the source
// memory to the sending NIC, the network as frames of a flow, and a PCIe leg from the
// receiving NIC to the destination memory. The legs overlap as cut-through would: the
// NIC reads its source while it sends (the message's first frame leaves once the first
// bytes are in the NIC), and the receiving NIC writes the destination from the first
// frame's arrival on; the message is delivered when its last frame has crossed the far
// leg and both legs have carried all its bytes.
#pragma once
#include "models/nvmeof/packet_network.hpp"
#include "models/rdma/carrier.hpp"
#include "sim/core/route.hpp"
#include "sim/core/slot_pool.hpp"

namespace iowall::nvmeof {

class PacketWire final : public rdma::Carrier {
public:
  // `near`: source memory -> sending NIC (its pipeline included); `far`: receiving NIC
  // -> destination memory, entered `far_nic_latency` after a frame arrives.
  PacketWire(RouteMover& mover, PacketNetwork& network, int flow, Route near, Route far, Time far_nic_latency);
  void carry(Bytes bytes, Done done) override;

private:
  struct Message {
    Bytes bytes;
    Done done;
    int parts_left = 3;  // the near leg, the far leg, the last frame through the far leg
  };
  void part_done(std::uint32_t id);

  SimContext& ctx_;
  RouteMover& mover_;
  PacketNetwork& network_;
  int flow_;
  Route near_, far_;
  Time far_nic_latency_;
  SlotPool<Message> messages_;
};

}  // namespace iowall::nvmeof
