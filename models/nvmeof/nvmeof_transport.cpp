// nvmeof: NVMe over Fabrics with the transport named in the path's "transport" key
// (rdma or tcp), for scenarios that sweep or choose it as a parameter.
#include "models/nvmeof/nvmeof_path.hpp"
#include "sim/config/registry.hpp"

namespace iowall::nvmeof {
namespace {

const detail::PathRegistrar nvmeof_transport_registrar{
    "nvmeof",
    "NVMe-oF from a remote target, transport chosen by \"transport\": rdma (then the parameters of nvmeof_rdma) or "
    "tcp (those of nvmeof_tcp)",
    __FILE__, [](const Params& p, PathEnv& env) { return make_transport(p, env); },
    [](const Params& p) { describe_transport(p); }};

}  // namespace

std::unique_ptr<DataPath> make_transport(const Params& p, PathEnv& env, const char* def) {
  return TransportChoice(p, def).transport == "tcp" ? make_tcp_path(p, env) : make_rdma_path(p, env);
}

void describe_transport(const Params& p, const char* def) {
  (void)TransportChoice(p, def);
  describe_rdma_path(p);
  describe_tcp_path(p);
}

}  // namespace iowall::nvmeof
