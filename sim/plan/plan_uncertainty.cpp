#include "sim/plan/plan_uncertainty.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/plan/checkpoint_planner.hpp"
#include "sim/plan/cluster.hpp"
#include "sim/plan/node_rates.hpp"
#include "sim/run/uncertainty_propagate.hpp"

namespace iowall::plan {
namespace {

using nlohmann::json;

// Where a setting came from, as an InputError wants it: "--storage-bw" or FILE and pointer.
std::pair<std::string, std::string> where_of(const std::string& key, const std::map<std::string, std::string>& origin) {
  const auto it = origin.find(key);
  std::string o = it == origin.end() ? "--" + key : it->second;
  if (it == origin.end()) std::replace(o.begin(), o.end(), '_', '-');
  const auto hash = o.find('#');
  if (hash == std::string::npos) return {"", o};
  return {o.substr(0, hash), o.substr(hash + 1)};
}

// The figures every sample answers, in this order; the rows are ranked by the overhead.
const std::vector<PropagatedFigure>& figures() {
  static const std::vector<PropagatedFigure> f = {{"save_s", 9}, {"restore_s", 9}, {"overhead", 6}};
  return f;
}
constexpr std::size_t kRanked = 2;

TaskValues figures_of(const PlanResult& r) { return {r.save.last_done, r.restore.last_done, r.overhead}; }

}  // namespace

UncertainSettings uncertain_settings(const json& settings, const std::map<std::string, std::string>& origin) {
  UncertainSettings out;
  out.nominal = settings;
  if (!settings.is_object()) return out;
  for (const auto& [key, value] : settings.items()) {
    if (!value.is_string()) continue;
    const std::string text = value.get<std::string>();
    if (!has_uncertainty(text)) continue;
    const std::optional<QuantityKind> kind = quantity_kind_of(text);
    if (!kind) continue;  // not a quantity (a file name with ".."): the setting's reader decides
    const auto [file, pointer] = where_of(key, origin);
    UncertainInput in;
    if (const ParseResult r = parse_uncertain(text, *kind, in.u); !r.ok) throw InputError(file, pointer, r.error);
    in.name = key;
    in.text = text;
    in.label = "plan." + key;
    in.file = file.empty() ? pointer : file;
    in.pointer = file.empty() ? std::string() : pointer;
    in.places = 1;
    out.nominal[key] = quantity_text(*kind, in.u.nominal);
    out.inputs.push_back(std::move(in));
  }
  return out;
}

namespace {

// A --cluster description's uncertain bandwidths, as inputs ("cluster.storage.server.nic").
std::vector<UncertainInput> cluster_inputs(const ClusterSpec& c) {
  std::vector<UncertainInput> out;
  for (const ClusterSpread& sp : c.spreads) {
    UncertainInput in;
    in.label = "cluster" + sp.field;
    std::replace(in.label.begin(), in.label.end(), '/', '.');
    in.name = in.label;
    in.text = sp.text;
    in.file = c.file;
    in.pointer = sp.pointer;
    in.places = 1;
    in.u = sp.u;
    out.push_back(std::move(in));
  }
  return out;
}

// The storage preset's values in force whose source gives a range.
std::vector<UncertainInput> preset_inputs(const StorageTarget& t) {
  std::vector<UncertainInput> out;
  for (const PresetSpread& sp : t.spreads) {
    UncertainInput in;
    in.label = in.name = sp.label;
    in.text = sp.text;
    in.file = fmt::format("the {} preset: {}", t.kind, sp.source);
    in.places = static_cast<std::size_t>(sp.count);
    if (const ParseResult r = parse_uncertain(sp.text, QuantityKind::bandwidth, in.u); !r.ok)
      throw RunError(fmt::format("the {} preset's {}: {}", t.kind, sp.label, r.error));
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace

void add_uncertainty(const PlanRequest& q, const UncertainSettings& settings,
                     const std::map<std::string, std::string>& origin, const UncertaintyOptions& o,
                     PlanCheckpointResult& result) {
  // Inputs in this order: the settings', the node's, the cluster description's, the preset's.
  std::vector<UncertainInput> inputs = settings.inputs;
  const std::size_t setting_count = inputs.size();
  std::vector<UncertainInput> node;
  if (q.input.node_sim) {
    const NodeSimulation& ns = *q.input.node_sim;
    node = node_inputs(ns.topology, ns.path, ns.rank_bytes);
    inputs.insert(inputs.end(), node.begin(), node.end());
  }
  const std::vector<UncertainInput> cluster = q.input.cluster ? cluster_inputs(*q.input.cluster) : std::vector<UncertainInput>{};
  inputs.insert(inputs.end(), cluster.begin(), cluster.end());
  const std::vector<UncertainInput> preset = preset_inputs(q.input.storage);
  inputs.insert(inputs.end(), preset.begin(), preset.end());
  const std::size_t cluster_at = setting_count + node.size(), preset_at = cluster_at + cluster.size();
  const auto evaluate = [&](const std::vector<i64>& values) {
    json s = settings.nominal;
    for (std::size_t k = 0; k < setting_count; ++k) s[inputs[k].name] = quantity_text(inputs[k].u.kind, values[k]);
    NodeSimulator simulator;
    if (!node.empty()) {
      const std::vector<i64> node_values(values.begin() + static_cast<std::ptrdiff_t>(setting_count),
                                         values.begin() + static_cast<std::ptrdiff_t>(cluster_at));
      simulator = [&node, node_values](const std::string& topology, IoPath path, double rank_bytes) {
        return simulate_node_with(topology, path, rank_bytes, node, node_values);
      };
    }
    ClusterEdit edit;
    if (!cluster.empty())
      edit = [&](ClusterSpec& c) {
        for (std::size_t k = 0; k < cluster.size(); ++k) set_cluster_value(c, c.spreads[k].field, values[cluster_at + k]);
      };
    PlanRequest one = request_from_settings(s, origin, simulator, edit);
    for (std::size_t k = 0; k < preset.size(); ++k)
      one.input.storage.set_spread_value(q.input.storage.spreads[k], Bandwidth(values[preset_at + k]).bytes_per_s_value());
    return figures_of(solve(one.input, one.fidelity));
  };
  const TaskValues nominal = {result.save.last_done_s, result.restore.last_done_s, result.overhead};
  Propagation p = propagate(inputs, figures(), nominal, kRanked, q.name, evaluate, o);
  for (std::size_t f = 0; f < p.intervals.size(); ++f) result.intervals[figures()[f].key] = p.intervals[f];
  if (p.summary) {
    if (!node.empty())
      p.summary->notes.push_back(fmt::format(
          "each sample simulates the node {} twice (save and restore) with its {} uncertain value{} drawn",
          q.input.node_sim->topology, node.size(), node.size() == 1 ? "" : "s"));
    p.summary->notes.push_back(
        "a storage preset's value is drawn only where its source gives a range (local-nvme's drive bandwidths); a "
        "--cluster's bandwidths are drawn where the description gives them with a spread; any other value is fixed "
        "unless a setting gives it with a spread (--storage-bw \"800 GB/s +- 10%\")");
    result.uncertainty = std::move(p.summary);
  }
  result.sensitivity = std::move(p.sensitivity);
}

}  // namespace iowall::plan
