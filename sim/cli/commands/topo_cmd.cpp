// `iowall topo show FILE [--dot]`: devices, links, notes (a link trained narrower than declared), and for every GPU<->storage pair
// the route and its narrowest hop (what bounds that pair's bandwidth). `iowall topo list`:
// the topologies shipped in the binary, by the names `topo show` and scenarios take.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/cli/output.hpp"
#include "sim/config/embedded.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/topology.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/plan/cluster.hpp"

namespace iowall {
namespace {

Json describe_topology(const Topology& topo) {
  Json devices = Json::array(), links = Json::array(), routes = Json::array();
  for (const auto& d : topo.devices()) devices.push_back({{"id", d->name()}, {"model", d->model()}});
  for (const auto& l : topo.links())
    links.push_back({{"a", l->a().full_name()},
                     {"b", l->b().full_name()},
                     {"protocol", l->spec().protocol},
                     {"summary", l->spec().summary},
                     {"bandwidth_GBps", l->spec().bandwidth.GBps_value()}});
  const Bytes chunk(128 * 1024);
  // Every GPU-SSD pair while there are few; past kAllPairs, each GPU's nearest SSDs only
  // (a 1,000-GPU node file would otherwise list and cache millions of routes).
  constexpr std::size_t kAllPairs = 4096;
  const auto gpus = topo.devices_of("gpu"), ssds = topo.devices_of("nvme_ssd");
  const bool all_pairs = gpus.size() * ssds.size() <= kAllPairs;
  std::size_t reachable = 0;
  for (Device* g : gpus) {
    throw_if_interrupted();
    const std::vector<int> hops = topo.hops_from(*g);
    int nearest = INT32_MAX;
    for (Device* s : ssds)
      if (const int h = hops[topo.index_of(*s)]; h > 0) {
        nearest = std::min(nearest, h);
        ++reachable;
      }
    for (Device* s : ssds) {
      const int h = hops[topo.index_of(*s)];
      if (h <= 0 || (!all_pairs && h != nearest)) continue;
      const Route& r = topo.route(*s, *g);
      const Hop* n = r.narrowest(chunk);
      routes.push_back({{"from", s->name()},
                        {"to", g->name()},
                        {"devices", r.devices},
                        {"latency_ns", r.latency().ns()},
                        {"narrowest", n ? n->label : ""},
                        {"narrowest_GBps_at_128KiB", r.bottleneck(chunk).GBps_value()}});
    }
  }
  Json out = {{"name", topo.name()}, {"description", topo.description()}, {"devices", devices}, {"links", links},
              {"routes", routes}};
  if (!topo.notes().empty()) out["notes"] = topo.notes();
  if (!all_pairs) out["routes_note"] = fmt::format("{} of {} storage -> GPU routes: each GPU's nearest drives", routes.size(), reachable);
  return out;
}

std::string topology_summary_text(const Json& t) {
  std::string out = fmt::format("{}: {}\n\ndevices\n", t["name"].get<std::string>(), t["description"].get<std::string>());
  for (const auto& d : t["devices"])
    out += fmt::format("  {:<10} {}\n", d["id"].get<std::string>(), d["model"].get<std::string>());
  out += "\nlinks\n";
  for (const auto& l : t["links"])
    out += fmt::format("  {:<14} -- {:<14} {:<16} {:8.2f} GB/s per direction\n", l["a"].get<std::string>(),
                       l["b"].get<std::string>(), l["summary"].get<std::string>(), l["bandwidth_GBps"].get<double>());
  if (t.contains("notes")) {
    out += "\nnotes\n";
    for (const auto& n : t["notes"]) out += fmt::format("  {}\n", n.get<std::string>());
  }
  out += "\nstorage -> GPU routes (narrowest hop for 128 KiB DMA writes)";
  out += t.contains("routes_note") ? "; " + t["routes_note"].get<std::string>() + "\n" : "\n";
  for (const auto& r : t["routes"])
    out += fmt::format("  {:<8} -> {:<6} {:>2} hops  {:8.2f} GB/s  narrowest {}\n", r["from"].get<std::string>(),
                       r["to"].get<std::string>(), r["devices"].size() - 1, r["narrowest_GBps_at_128KiB"].get<double>(),
                       r["narrowest"].get<std::string>());
  return out;
}

// The shipped topologies: name (the file's stem), file, devices and GPUs, description.
Json shipped_topologies() {
  Json list = Json::array();
  for (const EmbeddedFile& f : embedded_files()) {
    const std::string path = f.path;
    if (path.rfind("topologies/", 0) != 0) continue;
    const JsonDocument doc = parse_json_text(f.content, path);
    int gpus = 0;
    for (const Json& d : doc.json.value("devices", Json::array())) gpus += d.value("model", "") == "gpu";
    list.push_back({{"name", std::filesystem::path(path).stem().string()},
                    {"file", path},
                    {"devices", doc.json.value("devices", Json::array()).size()},
                    {"gpus", gpus},
                    {"description", doc.json.value("description", doc.json.value("name", ""))}});
  }
  std::sort(list.begin(), list.end(), [](const Json& a, const Json& b) { return a["name"] < b["name"]; });
  return list;
}

std::string topology_list_text(const Json& list) {
  std::string out = fmt::format("{:<26} {:>7} {:>4}  {}\n", "name", "devices", "gpus", "description");
  for (const Json& t : list) {
    std::string d = t["description"].get<std::string>();
    if (d.size() > 90) d = d.substr(0, 87) + "...";
    out += fmt::format("{:<26} {:>7} {:>4}  {}\n", t["name"].get<std::string>(), t["devices"].get<std::size_t>(),
                       t["gpus"].get<int>(), d);
  }
  return out;
}

void setup_topo(CLI::App& root, CliState&) {
  CLI::App* topo = root.add_subcommand("topo", "inspect a topology, discover this machine's, or derive a variant");
  topo->require_subcommand(1);
  auto file = std::make_shared<std::string>();
  auto dot = std::make_shared<bool>(false);
  auto out = std::make_shared<OutputOptions>();
  CLI::App* show = topo->add_subcommand("show", "devices, links, routes and the narrowest link of each GPU<->storage route");
  show->add_option("file", *file, "topology JSON file, or a shipped one by name (`iowall topo list`): dgx-h100; or a cluster description (clusters/*.json)")->required();
  show->add_flag("--dot", *dot, "print Graphviz text instead");
  out->add_to(*show, false);
  show->callback([file, dot, out] {
    const JsonDocument doc = load_json(*file);
    if (plan::is_cluster(doc.json)) {  // a cluster description: its summary
      if (*dot) throw InputError("--dot", "", "draws a node topology, not a cluster description");
      const Json c = plan::cluster_summary(plan::cluster_from_json(doc.json, doc.name, doc.directory));
      emit(*out, [&] { return plan::cluster_summary_text(c); }, c);
      return;
    }
    SimContext ctx(1);
    const Topology topology(ctx, doc.json, doc.name);
    if (*dot) {
      fmt::print("{}", topology.dot());
      return;
    }
    const Json t = describe_topology(topology);
    emit(*out, [&] { return topology_summary_text(t); }, t);
  });
  auto list_out = std::make_shared<OutputOptions>();
  CLI::App* list = topo->add_subcommand("list", "the topologies shipped in iowall, by the names topo show and scenarios take");
  list_out->add_to(*list, false);
  list->callback([list_out] {
    const Json l = shipped_topologies();
    emit(*list_out, [&] { return topology_list_text(l); }, l);
  });
}

}  // namespace

IOWALL_REGISTER_COMMAND(30, setup_topo);

}  // namespace iowall
