#include "models/nvmeof/packet_wire.hpp"

namespace iowall::nvmeof {

PacketWire::PacketWire(RouteMover& mover, PacketNetwork& network, int flow, Route near, Route far,
                       Time far_nic_latency)
    : ctx_(network.fabric().ctx()), mover_(mover), network_(network), flow_(flow), near_(std::move(near)),
      far_(std::move(far)), far_nic_latency_(far_nic_latency) {}

void PacketWire::carry(Bytes bytes, Done done) {
  const std::uint32_t id = messages_.acquire({bytes, std::move(done), 3});
  mover_.send(near_, bytes, [this, id] { part_done(id); });
  // The first bytes reach the NIC one route latency after the read starts.
  mover_.call_at(ctx_.now() + near_.latency(), [this, id] {
    network_.fabric().send_message(
        flow_, network_.frame_bytes(messages_[id].bytes),
        [this, id] {
          mover_.call_at(ctx_.now() + far_nic_latency_,
                         [this, id] { mover_.send(far_, messages_[id].bytes, [this, id] { part_done(id); }); });
        },
        [this, id] { mover_.call_at(ctx_.now() + far_nic_latency_ + far_.latency(), [this, id] { part_done(id); }); });
  });
}

void PacketWire::part_done(std::uint32_t id) {
  if (--messages_[id].parts_left > 0) return;
  const Done done = std::move(messages_[id].done);
  messages_.release(id);
  done();
}

}  // namespace iowall::nvmeof
