// How an NVMe-oF client reaches its target: which of the client's NICs carries the
// I/O (multi-rail: the one nearest the GPU by PCIe, same switch first), the target
// NIC at the far end of its network link, and routes joined across the two nodes
// (memory -> NIC -> wire -> NIC -> memory), which the topology's own routing never
// builds because NICs end routes rather than forward them.
#pragma once
#include <string>
#include <vector>

#include "models/rdma/nic.hpp"
#include "sim/run/data_path.hpp"

namespace iowall::nvmeof {

// One piece of a joined route. `dma_read`: a device reads memory here, so the data
// travels as read completions; `then`: latency added after the piece (an HCA's pipeline).
struct Segment {
  const Route* route = nullptr;
  bool dma_read = false;
  Time then{};
};
// The pieces end to end as one route: bytes cut through the junctions.
Route join_routes(const std::vector<Segment>& parts);

// Memory (or a GPU) -> its NIC -> the wire -> the other NIC -> memory (or a GPU): the
// first NIC reads the source by DMA, and each NIC adds its pipeline latency.
Route across(PathEnv& env, const Device& from, const Nic& from_nic, const Route& wire, const Nic& to_nic,
             const Device& to);

// The client NIC for I/O to or from `near` (a GPU or host memory): with `choice`
// "nearest", the NIC with a network link and the fewest hops from `near` (ties: the
// first declared); otherwise the NIC of that id. InputError at `pointer` of `file`.
Nic& choose_nic(PathEnv& env, const Device& near, const std::string& choice);
// The NIC at the far end of `nic`'s network link (InputError when it has none).
Nic& peer_nic(PathEnv& env, const Nic& nic);
// The server NIC a client NIC uses to reach `storage`: its peer on a direct link; through
// a network switch, by `choice`: "nearest", the NIC with a network link fewest PCIe hops
// from `storage`; "paired", the client NIC's index among the NICs with a network link
// on `client`'s PCIe hierarchy, modulo the server's (a server with several ports whose
// addresses the clients' ports mount one each); or the NIC of that id (InputError at
// `pointer`/target_nic).
Nic& target_nic(PathEnv& env, const Device& client, const Nic& client_nic, const Device& storage,
                const std::string& choice);
// The network link's route from one NIC to the other.
const Route& wire_route(PathEnv& env, const Nic& from, const Nic& to);

}  // namespace iowall::nvmeof
