// Flows over a topology's routes: every hop's server becomes one shared resource
// whose capacity is the hop's payload rate for the given packet size, so the same
// topology can be run at chunk fidelity (RouteMover) and at flow fidelity and the
// two compared.
#pragma once
#include <vector>

#include "sim/core/route.hpp"
#include "sim/run/flow_solver.hpp"

namespace iowall::flow {

struct RouteFlow {
  const Route* route;
  Bytes bytes;
  DmaKind kind = DmaKind::write;
};

// Payload bytes per second a hop carries for transfers of `chunk` bytes.
double hop_rate(const Hop& h, Bytes chunk, DmaKind kind);
// Simulates the flows over their routes (max-min fair); finish times in seconds.
FlowResult run_route_flows(const std::vector<RouteFlow>& flows, Bytes chunk);

}  // namespace iowall::flow
