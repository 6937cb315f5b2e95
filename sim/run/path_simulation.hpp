// One data path of a scenario built into a fresh simulation, ready to run: what
// `iowall run` simulates for each path, and what the scenario fuzz target builds
// (every check of the scenario's input) without running it.
#pragma once
#include <memory>

#include "sim/config/scenario.hpp"
#include "sim/config/topology.hpp"
#include "sim/core/sim_context.hpp"
#include "sim/run/data_path.hpp"
#include "sim/run/workload.hpp"

namespace iowall {

class PathSimulation {
public:
  // Builds the topology, the path and the workload (its class chosen by "kind"); InputError for anything wrong.
  // `trace` (optional) records the run; it must outlive this object.
  PathSimulation(const Scenario& sc, const PathChoice& choice, Time series_period = {}, Trace* trace = nullptr);
  ~PathSimulation();

  // Declared in the order they are built; each refers to those above it.
  SimContext ctx;
  std::unique_ptr<Topology> topology;
  std::unique_ptr<RouteMover> mover;
  std::unique_ptr<PathEnv> env;
  std::unique_ptr<DataPath> path;
  std::unique_ptr<WorkloadEnv> workload_env;
  std::unique_ptr<Workload> workload;  // chosen by the workload's kind
};

}  // namespace iowall
