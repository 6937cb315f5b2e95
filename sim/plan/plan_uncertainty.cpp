#include "sim/plan/plan_uncertainty.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/plan/checkpoint_planner.hpp"
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

void add_uncertainty(const PlanRequest& q, const UncertainSettings& settings,
                     const std::map<std::string, std::string>& origin, const UncertaintyOptions& o,
                     PlanCheckpointResult& result) {
  std::vector<UncertainInput> inputs = settings.inputs;
  const std::size_t setting_count = inputs.size();
  std::vector<UncertainInput> node;
  if (q.input.node_sim) {
    const NodeSimulation& ns = *q.input.node_sim;
    node = node_inputs(ns.topology, ns.path, ns.rank_bytes);
    inputs.insert(inputs.end(), node.begin(), node.end());
  }
  const auto evaluate = [&](const std::vector<i64>& values) {
    json s = settings.nominal;
    for (std::size_t k = 0; k < setting_count; ++k) s[inputs[k].name] = quantity_text(inputs[k].u.kind, values[k]);
    NodeSimulator simulator;
    if (!node.empty()) {
      const std::vector<i64> node_values(values.begin() + static_cast<std::ptrdiff_t>(setting_count), values.end());
      simulator = [&node, node_values](const std::string& topology, IoPath path, double rank_bytes) {
        return simulate_node_with(topology, path, rank_bytes, node, node_values);
      };
    }
    const PlanRequest one = request_from_settings(s, origin, simulator);
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
        "the storage presets' values and a --cluster's description are fixed; give a setting with a spread "
        "(--storage-bw \"800 GB/s +- 10%\") to draw it");
    result.uncertainty = std::move(p.summary);
  }
  result.sensitivity = std::move(p.sensitivity);
}

}  // namespace iowall::plan
