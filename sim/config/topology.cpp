#include "sim/config/topology.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/core/quote.hpp"
#include "sim/core/suggest.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/graphviz.hpp>
#include <fmt/format.h>

#include <numeric>
#include <sstream>

#include "sim/config/registry.hpp"
#include "sim/config/schema.hpp"

namespace iowall {
namespace {
// An integer parameter of a device or link, by name, as its model read it: the JSON
// value or the model's declared default; 0 when the model declares no such parameter.
i64 declared_int(const Params& p, const std::string& name) {
  for (const ParamInfo& info : p.declared())
    if (info.name == name && info.type == ParamType::integer) {
      const auto it = p.json().find(name);
      return it != p.json().end() && it->is_number_integer() ? it->get<i64>() : std::stoll(info.default_text);
    }
  return 0;
}
}  // namespace

struct Topology::Graph {
  using G = GraphType;
  G g;
};

Topology::~Topology() = default;

Topology::Topology(SimContext& ctx, const Json& doc, std::string file, std::string pointer)
    : file_(std::move(file)), pointer_(std::move(pointer)), graph_(std::make_unique<Graph>()) {
  check_size(doc);
  validate_json(topology_schema(), doc, file_, pointer_);
  name_ = doc.value("name", "");
  description_ = doc.value("description", "");
  build_devices(ctx, doc.at("devices"));
  build_links(ctx, doc.at("links"));
  for (const auto& d : devices_) d->find_devices([this](const std::string& id) { return find(id); });
  for (const auto& d : devices_) d->validate_connections();
  check_pcie_tree();
}

// A topology is one node's or one fabric's devices: the shipped ones hold at most 70, and
// 20,000 run in about a GB (reports/benchmarks.md, "Large topologies"). A device costs 10-60 KB
// (a bare one, one with its stats) and some 25 us to build, so a file of hundreds of thousands
// would spend seconds and gigabytes before the first wrong connection could be named: the
// counts are refused first, before the schema walks the arrays. A cluster of many nodes is
// `iowall plan`'s, not one topology.
constexpr std::size_t kMaxDevices = 100'000;
constexpr std::size_t kMaxLinks = 400'000;

void Topology::check_size(const Json& doc) const {
  if (!doc.is_object()) return;  // the schema names what is wrong
  for (const auto& [key, most] : {std::pair<const char*, std::size_t>{"devices", kMaxDevices}, {"links", kMaxLinks}}) {
    const auto it = doc.find(key);
    if (it != doc.end() && it->is_array() && it->size() > most)
      throw InputError(file_, pointer_ + "/" + key,
                       fmt::format("{} {}: a topology holds at most {} (model many nodes as a cluster with "
                                   "`iowall plan`)",
                                   it->size(), key, most));
  }
}

void Topology::build_devices(SimContext& ctx, const Json& devices) {
  auto& registry = ModelRegistry::instance();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if ((i & 0xFF) == 0) throw_if_interrupted();
    const Json& d = devices[i];
    const std::string ptr = fmt::format("{}/devices/{}", pointer_, i);
    const std::string id = d.at("id");
    const std::string model = d.at("model");
    if (index_.count(id)) throw InputError(file_, ptr + "/id", fmt::format("duplicate device id \"{}\"", id));
    const ModelEntry* entry = registry.find("device", model);
    if (!entry)
      throw InputError(file_, ptr + "/model",
                       fmt::format("unknown model \"{}\" (known: {}){}", quote_text(model, 60), fmt::join(registry.names("device"), ", "),
                                   did_you_mean(model, registry.names("device"))));
    // A preset supplies parameter values; the device's own keys override them.
    Json merged = Json::object();
    if (d.contains("preset")) {
      const std::string preset = d.at("preset");
      const auto it = entry->presets.find(preset);
      if (it == entry->presets.end()) {
        std::vector<std::string> names;
        for (const auto& [n, p] : entry->presets) names.push_back(n);
        throw InputError(file_, ptr + "/preset",
                         fmt::format("unknown {} preset \"{}\" (known: {}){}", model, quote_text(preset, 60),
                                     fmt::join(names, ", "), did_you_mean(preset, names)));
      }
      merged = it->second.values;
    }
    for (const auto& [k, v] : d.items()) merged[k] = v;
    const Params params(merged, JsonLocation{file_, ptr});
    auto dev = entry->device(params, ctx);
    registry.built(*entry, params);
    params.check_all_used(device_framework_keys());
    index_[id] = static_cast<int>(devices_.size());
    boost::add_vertex(VertexProps{dev.get()}, graph_->g);
    devices_.push_back(std::move(dev));
  }
}

void Topology::build_links(SimContext& ctx, const Json& links) {
  auto& registry = ModelRegistry::instance();
  std::vector<int> widths;  // each link's PCIe width as declared (0: not PCIe), for check_switch_lanes
  for (std::size_t i = 0; i < links.size(); ++i) {
    if ((i & 0xFF) == 0) throw_if_interrupted();
    const Json& l = links[i];
    const std::string ptr = fmt::format("{}/links/{}", pointer_, i);
    Port* ends[2] = {nullptr, nullptr};
    for (int side = 0; side < 2; ++side) {
      const char* key = side == 0 ? "a" : "b";
      const std::string ref = l.at(key);
      const auto dot = ref.find('.');
      const std::string dev_id = ref.substr(0, dot), port_name = ref.substr(dot + 1);
      const auto it = index_.find(dev_id);
      if (it == index_.end())
        throw InputError(file_, ptr + "/" + key, fmt::format("no device \"{}\" (in \"{}\")", dev_id, ref));
      Device& dev = *devices_[it->second];
      Port* port = dev.find_port(port_name);
      if (!port) {
        std::vector<std::string> names;
        for (const Port* p : dev.ports()) names.push_back(p->name());
        throw InputError(file_, ptr + "/" + key,
                         fmt::format("{} ({}) has no port \"{}\" (its ports: {})", dev_id, dev.model(), port_name,
                                     fmt::join(names, ", ")));
      }
      if (port->link())
        throw InputError(file_, ptr + "/" + key,
                         fmt::format("port {} is already joined by another link ({})", ref, port->link()->name()));
      ends[side] = port;
    }
    if (&ends[0]->owner() == &ends[1]->owner())
      throw InputError(file_, ptr, "a link must join two different devices");
    // The one protocol key names the link model ("pcie", "memory", ...).
    std::string protocol;
    for (const auto& [k, v] : l.items())
      if (k != "a" && k != "b") {
        if (!protocol.empty())
          throw InputError(file_, ptr + "/" + k,
                           fmt::format("a link has one protocol object, not two (\"{}\" and \"{}\")", protocol, k));
        protocol = k;
      }
    if (protocol.empty())
      throw InputError(file_, ptr,
                       fmt::format("the link has no protocol object (one of: {})", fmt::join(registry.names("link"), ", ")));
    const ModelEntry* entry = registry.find("link", protocol);
    const Params params(l.at(protocol), JsonLocation{file_, ptr + "/" + protocol});
    LinkSpec spec = entry->link(params);
    registry.built(*entry, params);
    params.check_all_used({});
    const int width = protocol == "pcie" ? static_cast<int>(declared_int(params, "lanes")) : 0;
    widths.push_back(width);
    // Link training settles on the widest width both ends support (PCIe base spec,
    // link width negotiation): a device's max_link_width caps the link.
    int cap = width;
    const Device* capper = nullptr;
    for (const Port* end : ends)
      if (const i64 w = declared_int(end->owner().params(), "max_link_width"); w > 0 && w < cap) {
        cap = static_cast<int>(w);
        capper = &end->owner();
      }
    if (capper) {
      spec = entry->link(params.with("lanes", cap));
      notes_.push_back(fmt::format("link {} ({} -- {}) is x{} but {} ({}) links at most x{}: it trains to x{}", i,
                                   ends[0]->full_name(), ends[1]->full_name(), width, capper->name(),
                                   capper->model(), cap, cap));
    }
    // PCIe links join one upstream port to one downstream port.
    if (protocol == "pcie") {
      const PortRole ra = ends[0]->role(), rb = ends[1]->role();
      if (ra != PortRole::any && rb != PortRole::any && ra == rb)
        throw InputError(file_, ptr,
                         fmt::format("a PCIe link joins an upstream port to a downstream port, but {} and {} are both {} ports",
                                     ends[0]->full_name(), ends[1]->full_name(), port_role_name(ra)));
    }
    auto link = std::make_unique<Link>(ctx, *ends[0], *ends[1], std::move(spec));
    for (Port* end : ends) end->owner().configure_egress(*end, *link->from(*end).server);
    boost::add_edge(index_[ends[0]->owner().name()], index_[ends[1]->owner().name()],
                    EdgeProps{link.get(), static_cast<int>(links_.size())}, graph_->g);
    links_.push_back(std::move(link));
  }
  check_switch_lanes(widths);
}

void Topology::check_switch_lanes(const std::vector<int>& widths) const {
  // A switch's ports share its lanes: the declared widths of its PCIe links (upstream
  // and downstream) add up to at most its `lanes` parameter.
  std::vector<i64> used(devices_.size(), 0);
  for (std::size_t i = 0; i < links_.size(); ++i)
    for (const Port* end : {&links_[i]->a(), &links_[i]->b()}) used[index_.at(end->owner().name())] += widths[i];
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    const Device& dev = *devices_[d];
    if (!dev.forwards() || used[d] == 0) continue;
    const i64 lanes = declared_int(dev.params(), "lanes");
    if (lanes > 0 && used[d] > lanes)
      throw InputError(file_, fmt::format("{}/devices/{}", pointer_, d),
                       fmt::format("{} ({}) has {} lanes, but the PCIe links on its ports are {} lanes wide: "
                                   "narrow a link or give the switch more lanes",
                                   dev.name(), dev.model(), lanes, used[d]));
  }
}

void Topology::check_pcie_tree() const {
  // Union-find over PCIe links: a link whose ends are already joined closes a cycle.
  std::vector<int> parent(devices_.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const auto& l : links_) {
    if (l->spec().protocol != "pcie") continue;
    const int a = root(index_.at(l->a().owner().name())), b = root(index_.at(l->b().owner().name()));
    if (a == b)
      throw InputError(file_, pointer_ + "/links",
                       fmt::format("the PCIe hierarchy has a cycle through link {}: PCIe must form a tree", l->name()));
    parent[a] = b;
  }
}

Device* Topology::find(const std::string& id) const {
  const auto it = index_.find(id);
  return it == index_.end() ? nullptr : devices_[it->second].get();
}

Device& Topology::device(const std::string& id, const std::string& where_file, const std::string& where_pointer) const {
  if (Device* d = find(id)) return *d;
  std::vector<std::string> ids;
  for (const auto& d : devices_) ids.push_back(d->name());
  throw InputError(where_file, where_pointer,
                   fmt::format("no device \"{}\" in topology {} (devices: {})", id, name_, fmt::join(ids, ", ")));
}

std::vector<Device*> Topology::devices_of(const std::string& model) const {
  std::vector<Device*> out;
  for (const auto& d : devices_)
    if (d->model() == model) out.push_back(d.get());
  return out;
}

std::vector<BlockStorage*> Topology::block_storage() const {
  std::vector<BlockStorage*> out;
  for (const auto& d : devices_)
    if (BlockStorage* s = d->as_block_storage()) out.push_back(s);
  return out;
}

BlockStorage& Topology::block_storage(const std::string& id, const std::string& where_file,
                                      const std::string& where_pointer) const {
  Device& d = device(id, where_file, where_pointer);
  if (BlockStorage* s = d.as_block_storage()) return *s;
  throw InputError(where_file, where_pointer,
                   fmt::format("{} is a {}, not block storage (such as an nvme_ssd)", id, d.model()));
}

namespace {
// Bytes cross only devices that forward them (switches, root complexes, fabrics); an
// endpoint (GPU, SSD, NIC, memory) can start or end a route but never carry one.
struct ForwardingEdges {
  const Topology::GraphType* g = nullptr;
  int from = -1, to = -1;
  bool usable(std::size_t v) const {
    return static_cast<int>(v) == from || static_cast<int>(v) == to || (*g)[v].device->forwards();
  }
  template <typename Edge>
  bool operator()(const Edge& e) const {
    return usable(boost::source(e, *g)) && usable(boost::target(e, *g));
  }
};
}  // namespace

std::vector<int> Topology::path(int from, int to) const {
  // Breadth-first search from `from` over edges that only forwarding devices carry;
  // vecS adjacency keeps declaration order, so ties break the same way every run.
  const auto n = boost::num_vertices(graph_->g);
  std::vector<Graph::G::vertex_descriptor> pred(n);
  for (std::size_t i = 0; i < n; ++i) pred[i] = i;
  const ForwardingEdges filter{&graph_->g, from, to};
  const boost::filtered_graph<Graph::G, ForwardingEdges> fg(graph_->g, filter);
  boost::breadth_first_search(
      fg, static_cast<Graph::G::vertex_descriptor>(from),
      boost::visitor(boost::make_bfs_visitor(boost::record_predecessors(pred.data(), boost::on_tree_edge()))));
  std::vector<int> out;
  if (from != to && pred[to] == static_cast<std::size_t>(to)) return out;
  for (int v = to; v != from; v = static_cast<int>(pred[v])) out.push_back(v);
  out.push_back(from);
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<int> Topology::hops_from(const Device& from) const {
  // One breadth-first search: a device is reached through forwarding devices only, as
  // path() requires of the devices between two ends.
  const int start = index_.at(from.name());
  const auto n = boost::num_vertices(graph_->g);
  std::vector<int> dist(n, -1);
  std::vector<int> queue{start};
  dist[start] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int v = queue[head];
    if (v != start && !graph_->g[v].device->forwards()) continue;  // an end, not a hop
    for (auto [e, end] = boost::out_edges(v, graph_->g); e != end; ++e) {
      const int w = static_cast<int>(boost::target(*e, graph_->g));
      if (dist[w] >= 0) continue;
      dist[w] = dist[v] + 1;
      queue.push_back(w);
    }
  }
  return dist;
}

int Topology::index_of(const Device& d) const { return index_.at(d.name()); }

bool Topology::connected(const Device& from, const Device& to) const {
  return !path(index_.at(from.name()), index_.at(to.name())).empty();
}

const Route& Topology::route(const Device& from, const Device& to) const {
  const int a = index_.at(from.name()), b = index_.at(to.name());
  auto& slot = routes_[{a, b}];
  if (slot) return *slot;
  auto r = std::make_unique<Route>();
  const std::vector<int> p = path(a, b);
  if (p.empty() && a != b)
    throw InputError(file_, pointer_, fmt::format("no route between {} and {}", from.name(), to.name()));
  for (int v : p) r->devices.push_back(devices_[v]->name());
  const auto memory = [](const Device& d) {
    return std::any_of(d.ports().begin(), d.ports().end(),
                       [](const Port* port) { return port->role() == PortRole::memory; });
  };
  const bool to_memory = memory(from) || memory(to);
  const Port* in_port = nullptr;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    // The link between p[i] and p[i+1] (the first declared one if there are several).
    Link* link = nullptr;
    int best = INT32_MAX;
    for (auto [e, end] = boost::out_edges(p[i], graph_->g); e != end; ++e) {
      if (static_cast<int>(boost::target(*e, graph_->g)) != p[i + 1]) continue;
      if (graph_->g[*e].index < best) {
        best = graph_->g[*e].index;
        link = graph_->g[*e].link;
      }
    }
    Device& here = *devices_[p[i]];
    const Port& out_port = &link->a().owner() == &here ? link->a() : link->b();
    if (in_port) here.transit(*in_port, out_port, to_memory, r->hops);
    Channel& ch = link->from(out_port);
    Hop hop;
    hop.server = ch.server.get();
    hop.bandwidth = ch.bandwidth;
    hop.wire = &ch.wire;
    hop.wire_read = ch.wire_read.max_payload > 0 ? &ch.wire_read : nullptr;
    hop.payload = &ch.payload_bytes;
    hop.label = out_port.full_name() + ">" + link->other(out_port).full_name();
    if (in_port) {
      hop.job_class = here.ingress_class(*in_port);
      hop.class_by_tc = here.arbitrates_by_tc();
      hop.store_and_forward = here.store_and_forward();
    }
    // Propagation plus the forwarding latency of the device the bytes enter next
    // (none for the destination itself).
    Device& next = link->other(out_port).owner();
    hop.latency = ch.latency + (i + 2 < p.size() ? next.forwarding_latency() : Time(0));
    r->hops.push_back(std::move(hop));
    in_port = &link->other(out_port);
  }
  slot = std::move(r);
  return *slot;
}

std::string Topology::dot() const {
  std::ostringstream out;
  const auto& g = graph_->g;
  boost::write_graphviz(
      out, g,
      [&](std::ostream& os, Graph::G::vertex_descriptor v) {
        os << fmt::format("[label=\"{}\\n{}\"]", g[v].device->name(), g[v].device->model());
      },
      [&](std::ostream& os, Graph::G::edge_descriptor e) {
        os << fmt::format("[label=\"{}\"]", g[e].link->spec().summary);
      });
  return out.str();
}

}  // namespace iowall
