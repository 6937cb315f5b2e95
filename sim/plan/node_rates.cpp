#include "sim/plan/node_rates.hpp"

#include <cmath>
#include <future>
#include <map>
#include <mutex>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/run/runner.hpp"
#include "sim/run/uncertain_inputs.hpp"

namespace iowall::plan {
namespace {

using nlohmann::json;

// The workload and data path of each planner path (node_rates.hpp says why each).
json workload(IoPath path, double rank_bytes, NodeRun run) {
  const bool save = run != NodeRun::restore;
  json w = {{"kind", save ? "checkpoint_save" : "checkpoint_load"},
            {"size", fmt::format("{} B", static_cast<long long>(std::llround(rank_bytes)))},
            {"io_size", "1 MiB"},
            {"targets", "all_gpus"},
            {"storage", "local"}};
  switch (path) {
    case IoPath::buffered:
      // torch.save: .cpu() into pageable memory, CRC-32, write(), fsync; simulated into memory
      // kept from the last save and, as a first save, into new memory (node_rates.hpp).
      // torch.load: one blocking reader, the kernel's readahead a window ahead (data_path()),
      // into new memory (a restore starts a new process).
      w["host_memory"] = run == NodeRun::save ? "pageable" : "pageable_fresh";
      if (save) w["serialize"] = "crc32", w["pipeline"] = "sequential", w["durability"] = "fsync_end";
      break;
    case IoPath::bounce:
      // FastPersist / DeepNVMe: pinned buffers, O_DIRECT with several writes (reads) in flight
      // (4: an assumption; their libaio/io_uring queues are deeper, the drives saturate first).
      w["host_memory"] = "pinned";
      w["qd"] = 4;
      if (save) w["pipeline"] = "overlapped", w["durability"] = "fsync_end";
      break;
    case IoPath::gds:
      w["qd"] = 4;
      if (save) w["durability"] = "fsync_end";
      break;
  }
  return w;
}

json data_path(IoPath path) {
  // The kernel's readahead with Linux's defaults (cpu_cached: read_ahead_kb 128 KiB; a
  // read() larger than that reads windows up to max_sectors_kb, one or two ahead).
  if (path == IoPath::buffered) return {{"name", "cpu_cached"}};
  return {{"name", path == IoPath::bounce ? "cpu_only" : "gpu_direct"}};
}

std::vector<NodePhase> phases(const PathMetrics& m) {
  std::vector<NodePhase> out;
  for (const PhaseMetrics& p : m.phases) {
    NodePhase n{p.name, p.seconds, "", 0};
    if (p.limited_by && p.seconds > 0) n.limited_by = p.limited_by->resource, n.utilization = p.limited_by->utilization;
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace

namespace {
const char* node_run_name(NodeRun run) {
  return run == NodeRun::save ? "save" : run == NodeRun::first_save ? "first-save" : "restore";
}
}  // namespace

std::string node_scenario(const std::string& topology, IoPath path, double rank_bytes, NodeRun run) {
  const json doc = {{"name", fmt::format("node-{}-{}", name(path), node_run_name(run))},
                    {"description", "one node's checkpoint, simulated for iowall plan checkpoint --node"},
                    {"topology", topology},
                    {"fidelity", "chunk"},
                    {"workload", workload(path, rank_bytes, run)},
                    {"paths", json::array({data_path(path)})}};
  return doc.dump(2);
}

namespace {

// The node's scenario for one direction, with `inputs` set to `values` when there are any.
Scenario node_run_scenario(const std::string& topology, IoPath path, double rank_bytes, NodeRun run,
                           const std::vector<UncertainInput>& inputs, const std::vector<i64>& values) {
  try {
    Scenario sc = parse_scenario_text(node_scenario(topology, path, rank_bytes, run), "--node");
    return inputs.empty() ? sc : with_values(sc, inputs, values);
  } catch (const InputError& e) {
    // Name the topology: the scenario is the planner's, not the user's.
    const std::string& m = e.message();
    throw InputError("", "--node", m.rfind(topology + ":", 0) == 0 ? m : fmt::format("{}: {}", topology, m));
  }
}

std::shared_ptr<NodeSimulation> simulate(const std::string& topology, IoPath path, double rank_bytes,
                                         const std::vector<UncertainInput>& inputs, const std::vector<i64>& values) {
  auto sim = std::make_shared<NodeSimulation>();
  sim->topology = topology;
  sim->path = path;
  sim->rank_bytes = rank_bytes;
  // Only the buffered path's save finds memory that differs between a first save and later ones.
  std::vector<NodeRun> runs{NodeRun::save, NodeRun::restore};
  if (path == IoPath::buffered) runs.push_back(NodeRun::first_save);
  // The runs are independent simulations: each on a thread of its own, results taken in order.
  std::vector<std::future<RunResult>> results;
  for (const NodeRun run : runs)
    results.push_back(std::async(std::launch::async, [sc = node_run_scenario(topology, path, rank_bytes, run, inputs,
                                                                            values)] { return run_scenario(sc); }));
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const NodeRun run = runs[k];
    RunResult r;
    try {
      r = results[k].get();
    } catch (const InputError& e) {
      for (std::size_t j = k + 1; j < results.size(); ++j) results[j].wait();
      const std::string& m = e.message();
      throw InputError("", "--node", m.rfind(topology + ":", 0) == 0 ? m : fmt::format("{}: {}", topology, m));
    }
    const PathMetrics& m = r.paths.front().metrics;
    sim->gpus = static_cast<int>(m.jobs.size());
    const double done = run != NodeRun::restore && m.durable_s ? *m.durable_s : m.last_done_s;
    switch (run) {
      case NodeRun::save: sim->save = phases(m), sim->save_s = done; break;
      case NodeRun::first_save: sim->first_save = phases(m), sim->first_save_s = done; break;
      case NodeRun::restore: sim->restore = phases(m), sim->restore_s = done; break;
    }
  }
  return sim;
}

}  // namespace

std::shared_ptr<const NodeSimulation> simulate_node(const std::string& topology, IoPath path, double rank_bytes) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, int, double>, std::shared_ptr<const NodeSimulation>> cache;
  const auto key = std::make_tuple(topology, static_cast<int>(path), rank_bytes);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  std::shared_ptr<const NodeSimulation> sim = simulate(topology, path, rank_bytes, {}, {});
  const std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(key, std::move(sim)).first->second;
}

std::vector<UncertainInput> node_inputs(const std::string& topology, IoPath path, double rank_bytes) {
  // Both directions' scenarios share the topology; an input either names is one unknown.
  std::map<std::string, UncertainInput> found;
  for (const NodeRun run : {NodeRun::save, NodeRun::restore})
    for (UncertainInput& in : uncertain_inputs(node_run_scenario(topology, path, rank_bytes, run, {}, {})))
      found.try_emplace(in.name + "\n" + in.text, std::move(in));
  std::vector<UncertainInput> out;
  for (auto& [k, in] : found) out.push_back(std::move(in));
  return out;
}

std::shared_ptr<const NodeSimulation> simulate_node_with(const std::string& topology, IoPath path, double rank_bytes,
                                                         const std::vector<UncertainInput>& inputs,
                                                         const std::vector<i64>& values) {
  return simulate(topology, path, rank_bytes, inputs, values);
}

std::vector<NodePhase> periodic_save(const NodeSimulation& sim, double new_share) {
  if (sim.first_save.size() != sim.save.size() || new_share <= 0) return sim.save;
  std::vector<NodePhase> out;
  for (std::size_t i = 0; i < sim.save.size(); ++i) {
    const NodePhase& kept = sim.save[i];
    const NodePhase& fresh = sim.first_save[i];
    NodePhase p = new_share >= 0.5 ? fresh : kept;  // the limit of the larger share
    p.seconds = (1 - new_share) * kept.seconds + new_share * fresh.seconds;
    out.push_back(std::move(p));
  }
  return out;
}

void use_node_storage(PlanInput& in) {
  // The simulated storage phases (everything but the copy engine's and the buffered
  // serializer's) give the node's rates; a phase that took no time leaves the preset's.
  in.storage = storage_preset("local-nvme");
  in.storage.spreads.clear();  // the node's simulated drives (and their own ranges) set the rates
  const NodeSimulation& ns = *in.node_sim;
  auto storage_s = [&](const std::vector<NodePhase>& phases) {
    double t = 0;
    for (const NodePhase& p : phases)
      if (p.name != "d2h" && p.name != "h2d" && !(p.name == "serialize_write" && ns.path == IoPath::buffered))
        t += p.seconds;
    return t;
  };
  const double node_bytes = ns.rank_bytes * ns.gpus, ws = storage_s(ns.save), rs = storage_s(ns.restore);
  if (ws > 0) in.storage.node_write_bw = node_bytes / ws;
  if (rs > 0) in.storage.node_read_bw = node_bytes / rs;
  in.storage.server_write_bw = 0;  // the per-drive figure is the preset's, not the node's
  in.storage.values_from = fmt::format("the simulated node {}", ns.topology);
  in.storage.notes = {{{"node_bw", "node_read_bw"},
                       fmt::format("node {} ({} GPU{}) simulated at chunk fidelity, {} per GPU, path {}: storage "
                                   "rates from its drives",
                                   ns.topology, ns.gpus, ns.gpus == 1 ? "" : "s",
                                   to_string(Bytes(std::llround(ns.rank_bytes))), name(ns.path))}};
}

}  // namespace iowall::plan
