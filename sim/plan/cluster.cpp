#include "sim/plan/cluster.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "sim/config/json_fields.hpp"
#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quote.hpp"
#include "sim/core/units.hpp"

namespace iowall::plan {

double ClusterStorage::server_write_bw() const { return std::min(nics * nic_bw, drives * drive_write_bw); }
double ClusterStorage::server_read_bw() const { return std::min(nics * nic_bw, drives * drive_read_bw); }

int ClusterSpec::compute_leaf(int node, int port) const {
  const int leaves_per_rail = (nodes.count + fabric.nodes_per_leaf - 1) / fabric.nodes_per_leaf;
  return (fabric.kind == "rail_optimized" ? port * leaves_per_rail : 0) + node / fabric.nodes_per_leaf;
}
int ClusterSpec::storage_links_per_plane() const {
  return (storage.servers_per_leaf * storage.nics + fabric.uplinks - 1) / fabric.uplinks;
}

double ClusterSpec::fabric_uplink_bw() const {
  return static_cast<double>(fabric.compute_leaves) * fabric.uplinks * fabric.link_bw;
}
double ClusterSpec::storage_write_ceiling() const {
  // The spine planes reach the storage leaves over non-blocking storage leaves: the
  // servers' own ports and drives are the ceiling.
  return storage.servers * storage.server_write_bw();
}
double ClusterSpec::storage_read_ceiling() const { return storage.servers * storage.server_read_bw(); }

bool is_cluster(const Json& doc) { return doc.is_object() && doc.contains("nodes") && doc.contains("fabric"); }

std::uint64_t ecmp_hash(std::uint64_t x) {
  // splitmix64's finalizer: every input bit moves every output bit.
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

namespace {

// Reads the keys of one object of the description (no others), each error at its pointer.
JsonFields fields(const Json& obj, const std::string& file, std::string pointer, const std::set<std::string>& known) {
  JsonFields f(obj, file, std::move(pointer), "must be an object");
  f.only(known);
  return f;
}

// The node topology's GPUs and NIC devices, from its JSON.
void read_node_topology(ClusterNodes& n, const JsonFields& f, const std::string& directory) {
  JsonDocument doc;
  try {
    doc = load_json(n.topology, directory);
  } catch (const InputError& e) {
    f.fail("topology", fmt::format("{}{}: {}", e.where(), e.pointer(), e.message()));
  }
  int gpus = 0, nics = 0;
  for (const Json& d : doc.json.value("devices", Json::array())) {
    const std::string model = d.value("model", "");
    gpus += model == "gpu";
    nics += model == "nic";
  }
  if (gpus == 0) f.fail("topology", fmt::format("{} has no GPU", doc.name));
  n.gpus = gpus;
  n.nics = nics;
  n.node_topology = std::move(doc.json);
}

// The bandwidths a description may give with an uncertainty, by field.
double& bandwidth_at(ClusterSpec& c, const std::string& field) {
  if (field == "/nodes/nic") return c.nodes.nic_bw;
  if (field == "/fabric/link") return c.fabric.link_bw;
  if (field == "/storage/server/nic") return c.storage.nic_bw;
  if (field == "/storage/server/drive_write") return c.storage.drive_write_bw;
  if (field == "/storage/server/drive_read") return c.storage.drive_read_bw;
  throw RunError("cluster: no bandwidth at " + field);
}

// A positive bandwidth (B/s), plain or with its uncertainty: then its nominal value, the
// spread kept in c.spreads. A spread that does not parse (as wide as the value, negative)
// fails at the key.
double bandwidth(const JsonFields& f, const std::string& key, const std::string& field, ClusterSpec& c) {
  const Json& v = f.required(key);
  if (!v.is_string() || !has_uncertainty(v.get<std::string>())) return f.positive_bandwidth(key, "400 Gb/s");
  ClusterSpread s{field, f.pointer(key), v.get<std::string>(), {}};
  if (const ParseResult r = parse_uncertain(s.text, QuantityKind::bandwidth, s.u); !r.ok) f.fail(key, r.error);
  if (s.u.nominal <= 0) f.fail(key, "must be positive");
  c.spreads.push_back(std::move(s));
  return Bandwidth(c.spreads.back().u.nominal).bytes_per_s_value();
}

}  // namespace

void set_cluster_value(ClusterSpec& c, const std::string& field, i64 value) {
  bandwidth_at(c, field) = Bandwidth(value).bytes_per_s_value();
}

ClusterSpec cluster_from_json(const Json& doc, const std::string& file, const std::string& directory,
                              const std::string& base) {
  ClusterSpec c;
  c.file = file;
  const JsonFields top = fields(doc, file, base, {"name", "description", "sources", "nodes", "fabric", "storage"});
  c.name = top.has("name") ? top.required_text("name") : std::string("cluster");
  if (top.has("description")) c.description = top.required_text("description");
  if (top.has("sources")) {
    if (!doc["sources"].is_array()) top.fail("sources", "must be an array of text");
    for (const Json& s : doc["sources"]) {
      if (!s.is_string()) top.fail("sources", "must be an array of text");
      c.sources.push_back(s.get<std::string>());
    }
  }

  const JsonFields nf = fields(top.required("nodes"), file, base + "/nodes", {"topology", "count", "nics", "nic"});
  c.nodes.topology = nf.required_text("topology");
  c.nodes.count = nf.integer_in("count", 1, 1 << 22);
  read_node_topology(c.nodes, nf, directory);
  if (nf.has("nics")) {
    const int given = nf.integer_in("nics", 1, 64);
    if (given > c.nodes.nics)
      nf.fail("nics", fmt::format("{} NIC ports (rails) is more than the {} NICs of {}", given, c.nodes.nics, c.nodes.topology));
    c.nodes.nics = given;
  }
  if (c.nodes.nics == 0) nf.fail("nics", fmt::format("{} has no NIC: give the node's storage NIC ports", c.nodes.topology));
  c.nodes.nic_bw = bandwidth(nf, "nic", "/nodes/nic", c);

  const JsonFields ff = fields(top.required("fabric"), file, base + "/fabric", {"kind", "nodes_per_leaf", "link", "oversubscription"});
  c.fabric.kind = ff.required_text("kind");
  if (c.fabric.kind != "fat_tree" && c.fabric.kind != "rail_optimized")
    ff.fail("kind", fmt::format("\"{}\" is not a fabric (expected fat_tree or rail_optimized)", quote_text(c.fabric.kind, 40)));
  c.fabric.nodes_per_leaf = ff.integer_in("nodes_per_leaf", 1, 4096);
  c.fabric.link_bw = bandwidth(ff, "link", "/fabric/link", c);
  c.fabric.oversubscription = ff.has("oversubscription") ? ff.number_at_least("oversubscription", 0) : 1.0;
  if (c.fabric.oversubscription < 1)
    ff.fail("oversubscription", fmt::format("{} is below 1: a leaf cannot have more uplinks than down ports",
                                            c.fabric.oversubscription));

  const JsonFields sf = fields(top.required("storage"), file, base + "/storage", {"kind", "servers", "servers_per_leaf", "server"});
  c.storage.kind = sf.required_text("kind");
  if (c.storage.kind != "pfs" && c.storage.kind != "nvme-of" && c.storage.kind != "object")
    sf.fail("kind", fmt::format("\"{}\" is not shared storage (expected pfs, nvme-of or object)", quote_text(c.storage.kind, 40)));
  c.storage.servers = sf.integer_in("servers", 1, 1 << 20);
  c.storage.servers_per_leaf = sf.has("servers_per_leaf") ? sf.integer_in("servers_per_leaf", 1, 4096) : 16;
  const JsonFields sv = fields(sf.required("server"), file, base + "/storage/server", {"nics", "nic", "drives", "drive_write", "drive_read"});
  c.storage.nics = sv.integer_in("nics", 1, 64);
  c.storage.nic_bw = bandwidth(sv, "nic", "/storage/server/nic", c);
  c.storage.drives = sv.integer_in("drives", 1, 4096);
  c.storage.drive_write_bw = bandwidth(sv, "drive_write", "/storage/server/drive_write", c);
  c.storage.drive_read_bw = bandwidth(sv, "drive_read", "/storage/server/drive_read", c);
  derive(c);
  return c;
}

void derive(ClusterSpec& c) {
  const bool rail = c.fabric.kind == "rail_optimized";
  c.fabric.rails = rail ? c.nodes.nics : 1;
  c.fabric.down_ports = c.fabric.nodes_per_leaf * (rail ? 1 : c.nodes.nics);
  c.fabric.uplinks = std::max(1, static_cast<int>(std::ceil(c.fabric.down_ports / c.fabric.oversubscription - 1e-9)));
  c.fabric.compute_leaves = c.fabric.rails * ((c.nodes.count + c.fabric.nodes_per_leaf - 1) / c.fabric.nodes_per_leaf);
  c.storage.storage_leaves = (c.storage.servers + c.storage.servers_per_leaf - 1) / c.storage.servers_per_leaf;
}

void set_cluster_bandwidths(StorageTarget& t, const ClusterSpec& c) {
  t.write_bw = c.storage_write_ceiling();
  t.read_bw = c.storage_read_ceiling();
  t.node_write_bw = t.node_read_bw = c.nodes.nics * c.nodes.nic_bw;
  t.server_write_bw = c.storage.server_write_bw();
}

StorageTarget cluster_storage(const ClusterSpec& c) {
  StorageTarget t = storage_preset(c.storage.kind);
  t.spreads.clear();  // the description's bandwidths are in force (with their own spreads)
  set_cluster_bandwidths(t, c);
  t.server_unit = "server";
  t.values_from = fmt::format("the cluster {}", c.name);
  t.notes = {{{"storage_bw", "storage_read_bw", "server_bw"},
              fmt::format("cluster {} ({}): {} servers x min({} NIC ports x {:.1f} GB/s, {} drives x {:.1f} GB/s write)",
                          c.name, c.file, c.storage.servers, c.storage.nics, c.storage.nic_bw / 1e9, c.storage.drives,
                          c.storage.drive_write_bw / 1e9)},
             {{"node_bw", "node_read_bw"},
              fmt::format("nodes: {} storage NIC ports of {:.1f} GB/s each", c.nodes.nics, c.nodes.nic_bw / 1e9)},
             {{"request_latency", "file_latency"}, fmt::format("request and file latencies: the {} preset", c.storage.kind)}};
  return t;
}

ClusterSpec load_cluster(const std::string& file, const std::string& relative_to) {
  const JsonDocument doc = load_json(file, relative_to);
  if (!is_cluster(doc.json))
    throw InputError(doc.name, "", "is not a cluster description (it needs \"nodes\", \"fabric\" and \"storage\")");
  return cluster_from_json(doc.json, doc.name, doc.directory);
}

Json cluster_summary(const ClusterSpec& c) {
  const double GBps = 1e9;
  Json j;
  j["name"] = c.name;
  j["description"] = c.description;
  j["nodes"] = {{"topology", c.nodes.topology}, {"count", c.nodes.count}, {"gpus_per_node", c.nodes.gpus},
                {"gpus", c.gpus()}, {"nics_per_node", c.nodes.nics}, {"nic_GBps", c.nodes.nic_bw / GBps}};
  j["fabric"] = {{"kind", c.fabric.kind},
                 {"rails", c.fabric.rails},
                 {"compute_leaves", c.fabric.compute_leaves},
                 {"spine_planes", c.fabric.uplinks},
                 {"down_ports_per_leaf", c.fabric.down_ports},
                 {"uplinks_per_leaf", c.fabric.uplinks},
                 {"oversubscription", c.fabric.oversubscription},
                 {"injection_GBps", c.nodes.count * c.nodes.nics * c.nodes.nic_bw / GBps},
                 {"leaf_uplinks_GBps", c.fabric_uplink_bw() / GBps}};
  j["storage"] = {{"kind", c.storage.kind},
                  {"servers", c.storage.servers},
                  {"storage_leaves", c.storage.storage_leaves},
                  {"server_write_GBps", c.storage.server_write_bw() / GBps},
                  {"server_read_GBps", c.storage.server_read_bw() / GBps},
                  {"write_ceiling_GBps", c.storage_write_ceiling() / GBps},
                  {"read_ceiling_GBps", c.storage_read_ceiling() / GBps},
                  {"drives", c.storage.servers * c.storage.drives},
                  {"nic_ports", c.storage.servers * c.storage.nics}};
  j["sources"] = c.sources;
  return j;
}

std::string cluster_summary_text(const Json& s) {
  const Json &n = s["nodes"], &f = s["fabric"], &st = s["storage"];
  std::string out = fmt::format("{}: {}\n\n", s["name"].get<std::string>(), s["description"].get<std::string>());
  out += fmt::format("nodes    {} x {} ({} GPUs each, {} storage NIC ports of {:.1f} GB/s): {} GPUs\n",
                     n["count"].get<int>(), n["topology"].get<std::string>(), n["gpus_per_node"].get<int>(),
                     n["nics_per_node"].get<int>(), n["nic_GBps"].get<double>(), n["gpus"].get<int>());
  out += fmt::format("fabric   {}, {} rail{}: {} compute leaves of {} down / {} up ports (oversubscription {:g}), "
                     "{} spine planes\n",
                     f["kind"].get<std::string>(), f["rails"].get<int>(), f["rails"].get<int>() == 1 ? "" : "s",
                     f["compute_leaves"].get<int>(), f["down_ports_per_leaf"].get<int>(), f["uplinks_per_leaf"].get<int>(),
                     f["oversubscription"].get<double>(), f["spine_planes"].get<int>());
  out += fmt::format("         injection {:.0f} GB/s, leaf uplinks {:.0f} GB/s per direction\n",
                     f["injection_GBps"].get<double>(), f["leaf_uplinks_GBps"].get<double>());
  out += fmt::format("storage  {} x {} server ({} storage leaves; {:.1f} GB/s write, {:.1f} GB/s read each): "
                     "{:.0f} GB/s write, {:.0f} GB/s read; {} drives, {} NIC ports\n",
                     st["servers"].get<int>(), st["kind"].get<std::string>(), st["storage_leaves"].get<int>(),
                     st["server_write_GBps"].get<double>(), st["server_read_GBps"].get<double>(),
                     st["write_ceiling_GBps"].get<double>(), st["read_ceiling_GBps"].get<double>(),
                     st["drives"].get<int>(), st["nic_ports"].get<int>());
  return out;
}

}  // namespace iowall::plan
