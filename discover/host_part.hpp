// The host side of a discovered topology: per socket a cpu_socket (its preset when the
// CPU's model name is known, its physical cores), a dram (the socket's NUMA memory; the
// bandwidth of the known platform, else the model's default with a note) and a
// root_complex, joined as the project's topologies join them; sockets joined in pairs
// through their root complexes' peer ports.
#pragma once
#include "discover/host_scan.hpp"
#include "discover/part.hpp"

namespace iowall::discover {

// Root complexes are "rc0".."rcN-1" with one root port each; the PCIe tree sets root_ports.
Part host_part(const HostInfo& host);

}  // namespace iowall::discover
