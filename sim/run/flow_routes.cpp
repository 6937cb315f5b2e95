#include "sim/run/flow_routes.hpp"

#include <map>

namespace iowall::flow {

double hop_rate(const Hop& h, Bytes chunk, DmaKind kind) {
  const Time t = h.service(chunk, kind);
  return t.is_positive() ? chunk.bytes_value() / t.seconds() : 0.0;
}

FlowResult run_route_flows(const std::vector<RouteFlow>& flows, Bytes chunk) {
  FlowSolver fs;
  std::map<const Server*, std::uint32_t> resource;
  for (const RouteFlow& rf : flows) {
    Flow f;
    f.bytes = rf.bytes.bytes_value();
    for (const Hop& h : rf.route->hops) {
      auto it = resource.find(h.server);
      if (it == resource.end())
        it = resource.emplace(h.server, fs.add_resource(h.label, hop_rate(h, chunk, rf.kind))).first;
      f.path.push_back(it->second);
    }
    fs.add_flow(std::move(f));
  }
  return fs.run();
}

}  // namespace iowall::flow
