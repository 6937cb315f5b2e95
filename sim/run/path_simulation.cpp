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
  // The machine's own settings for this path (its topology's "paths" entry) under the
  // scenario's: what its kernel and block queues are set to, which a scenario may change.
  Params path_params(choice.params, JsonLocation{sc.file, choice.pointer});
  if (const auto node = sc.topology.find("paths"); node != sc.topology.end() && node->contains(choice.name))
    path_params = path_params.with_node(node->at(choice.name),
                                        JsonLocation{sc.topology_file, sc.topology_pointer + "/paths/" + choice.name});
  path = entry->path(path_params, *env);
  ModelRegistry::instance().built(*entry, path_params);
  path_params.check_all_used({});
  const Params workload_params(sc.workload, JsonLocation{sc.file, "/workload"});
  // The kind picks the workload class; each reads (and checks) the rest.
  const std::string kind =
      workload_params.get_choice("kind", "sequential_read", ModelRegistry::instance().names("workload"),
                                 "what the workload does: an access pattern and direction, or a checkpoint", "");
  const ModelEntry* w = ModelRegistry::instance().find("workload", kind);
  workload_env = std::make_unique<WorkloadEnv>(WorkloadEnv{ctx, *topology, *path, *env, sc.file, "/workload"});
  workload = w->workload(workload_params, *workload_env);
  ModelRegistry::instance().built(*w, workload_params);
  workload_params.check_all_used({});
}

PathSimulation::~PathSimulation() = default;

}  // namespace iowall
