// nvmeof: NVMe over Fabrics with the transport named in the path's "transport" key
// (rdma or tcp), for scenarios that sweep or choose it as a parameter.
#include "models/nvmeof/nvmeof_path.hpp"
#include "sim/config/registry.hpp"

namespace iowall::nvmeof {
namespace {

std::string read_transport(const Params& p) {
  return p.get_choice("transport", "rdma", {"rdma", "tcp"},
                      "rdma: RoCEv2 or InfiniBand, as the network link is; tcp: NVMe/TCP over the same link",
                      "NVMe over Fabrics 1.1 transport bindings");
}

const detail::PathRegistrar registrar{
    "nvmeof",
    "NVMe-oF from a remote target, transport chosen by \"transport\": rdma (then the parameters of nvmeof_rdma) or "
    "tcp (those of nvmeof_tcp)",
    __FILE__,
    [](const Params& p, PathEnv& env) { return read_transport(p) == "tcp" ? make_tcp_path(p, env) : make_rdma_path(p, env); },
    [](const Params& p) {
      read_transport(p);
      describe_rdma_path(p);
    }};

}  // namespace
}  // namespace iowall::nvmeof
