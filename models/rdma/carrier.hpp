// Another way for a work request's bytes to reach the far memory than one RouteMover
// chunk over a joined route: e.g. PCIe legs at both ends with a per-packet network
// between them (models/nvmeof/packet_wire.hpp). Per message, not per packet.
#pragma once
#include "sim/core/inline_function.hpp"
#include "sim/core/units.hpp"

namespace iowall::rdma {

class Carrier {
public:
  using Done = InlineFunction<void()>;
  virtual ~Carrier() = default;
  // Moves `bytes` of payload; `done` when the last byte is in the destination memory.
  // Messages of one carrier arrive in the order they were given.
  virtual void carry(Bytes bytes, Done done) = 0;
};

}  // namespace iowall::rdma
