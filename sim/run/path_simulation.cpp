#include "sim/run/path_simulation.hpp"

#include <fmt/format.h>

#include "sim/config/registry.hpp"

namespace iowall {

PathSimulation::PathSimulation(const Scenario& sc, const PathChoice& choice, Time series_period, Trace* trace)
    : ctx(sc.seed) {
  if (trace) ctx.set_trace(trace);
  ctx.set_series_period(series_period);
  ctx.set_fidelity(sc.fidelity == "tlp" ? Fidelity::tlp : Fidelity::chunk);
  topology = std::make_unique<Topology>(ctx, sc.topology, sc.topology_file, sc.topology_pointer);
  mover = std::make_unique<RouteMover>(ctx);
  const ModelEntry* entry = ModelRegistry::instance().find("path", choice.name);
  if (!entry)
    throw InputError(sc.file, choice.pointer,
                     fmt::format("unknown path \"{}\" (known: {})", choice.name,
                                 fmt::join(ModelRegistry::instance().names("path"), ", ")));
  env = std::make_unique<PathEnv>(ctx, *topology, *mover, sc.file, choice.pointer);
  const Params path_params(choice.params, JsonLocation{sc.file, choice.pointer});
  path = entry->path(path_params, *env);
  ModelRegistry::instance().built(*entry, path_params);
  path_params.check_all_used({});
  const Params workload_params(sc.workload, JsonLocation{sc.file, "/workload"});
  const WorkloadConfig config = read_workload(workload_params);
  workload_params.check_all_used({});
  workload = std::make_unique<IoWorkload>(config, *topology, *path, ctx, sc.file, "/workload");
}

PathSimulation::~PathSimulation() = default;

}  // namespace iowall
