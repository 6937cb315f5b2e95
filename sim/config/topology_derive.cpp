#include "sim/config/topology_derive.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>

#include <fmt/format.h>

#include "sim/config/registry.hpp"
#include "sim/config/schema.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quote.hpp"

namespace iowall {
namespace {

// The PCIe switch preset of each generation, where the registry has one.
const std::map<int, std::string>& switch_generations() {
  static const std::map<int, std::string> m = {{3, "pex9700"}, {4, "pex88000"}, {5, "pex89000"}};
  return m;
}

std::pair<std::string, std::string> split_ref(const std::string& ref) {
  const auto dot = ref.find('.');
  if (dot == std::string::npos) return {ref, ""};
  return {ref.substr(0, dot), ref.substr(dot + 1)};
}

// The one protocol object of a link ({"pcie": {...}}), without its ends.
Json protocol_of(const Json& link) {
  Json p = Json::object();
  for (const auto& [k, v] : link.items())
    if (k != "a" && k != "b") p[k] = v;
  return p;
}

class Editor {
public:
  Editor(Json base, const DeriveWhere& where) : t_(std::move(base)), where_(where) {
    if (!t_.is_object() || !t_.contains("devices") || !t_["devices"].is_array() || !t_.contains("links") ||
        !t_["links"].is_array())
      throw InputError(where_("").first, "", "the base is not a topology (no devices and links arrays)");
  }

  [[noreturn]] void fail(const std::string& key, const std::string& sub, const std::string& message) const {
    auto [w, p] = where_(key);
    if (!p.empty() && !sub.empty()) p += "/" + sub;
    throw InputError(w, p, message);
  }

  Json& devices() { return t_["devices"]; }
  Json& links() { return t_["links"]; }
  Json take() { return std::move(t_); }

  int index(const std::string& id) const {
    const Json& d = t_["devices"];
    for (std::size_t i = 0; i < d.size(); ++i)
      if (d[i].value("id", "") == id) return static_cast<int>(i);
    return -1;
  }
  std::string model(const std::string& id) const {
    const int i = index(id);
    return i < 0 ? "" : t_["devices"][static_cast<std::size_t>(i)].value("model", "");
  }
  std::vector<std::string> ids_of(const std::string& m) const {
    std::vector<std::string> out;
    for (const Json& d : t_["devices"])
      if (d.value("model", "") == m) out.push_back(d.value("id", ""));
    return out;
  }
  // The link with an end at `ref` ("sw0.dn3"), -1 when the port is free.
  int link_at(const std::string& ref) const {
    const Json& l = t_["links"];
    for (std::size_t i = 0; i < l.size(); ++i)
      if (l[i].value("a", "") == ref || l[i].value("b", "") == ref) return static_cast<int>(i);
    return -1;
  }
  // The device at the other end of `id`'s up link ("" when it has none).
  std::string parent(const std::string& id) const {
    const int l = link_at(id + ".up");
    if (l < 0) return "";
    const Json& link = t_["links"][static_cast<std::size_t>(l)];
    const std::string other = link.value("a", "") == id + ".up" ? link.value("b", "") : link.value("a", "");
    return split_ref(other).first;
  }
  // Devices of `m` whose up link ends at `p`, in declaration order.
  std::vector<std::string> below(const std::string& p, const std::string& m) const {
    std::vector<std::string> out;
    for (const std::string& id : ids_of(m))
      if (parent(id) == p) out.push_back(id);
    return out;
  }
  // An integer parameter as the device sets it, else its preset, else its model's default.
  long long effective(const std::string& id, const std::string& key) const {
    const Json& d = t_["devices"][static_cast<std::size_t>(index(id))];
    if (d.contains(key) && d[key].is_number_integer()) return d[key].get<long long>();
    const ModelEntry* e = ModelRegistry::instance().find("device", d.value("model", ""));
    if (!e) return 0;
    if (d.contains("preset") && d["preset"].is_string()) {
      const auto it = e->presets.find(d["preset"].get<std::string>());
      if (it != e->presets.end() && it->second.values.contains(key)) return it->second.values[key].get<long long>();
    }
    for (const ParamInfo& p : e->describe().params)
      if (p.name == key) return std::atoll(p.default_text.c_str());
    return 0;
  }
  // The lowest free port PREFIXk of device `p`, growing its port count (COUNT_KEY) when
  // every port is taken.
  std::string free_port(const std::string& p, const std::string& prefix, const std::string& count_key, long long limit,
                        const std::string& key) {
    for (long long k = 0;; ++k) {
      const std::string port = fmt::format("{}{}", prefix, k);
      if (link_at(p + "." + port) >= 0) continue;
      if (k >= limit)
        fail(key, "", fmt::format("{} would need more than the {} {} its model allows", p, limit, count_key));
      if (k >= effective(p, count_key)) t_["devices"][static_cast<std::size_t>(index(p))][count_key] = k + 1;
      return port;
    }
  }
  void remove(const std::string& id) {
    Json& d = t_["devices"];
    d.erase(static_cast<std::size_t>(index(id)));
    Json kept = Json::array();
    for (const Json& l : t_["links"])
      if (split_ref(l.value("a", "")).first != id && split_ref(l.value("b", "")).first != id) kept.push_back(l);
    t_["links"] = std::move(kept);
  }
  // Whether `id` is below `p`, at any depth (through the up links).
  bool descends(std::string id, const std::string& p) const {
    for (std::size_t depth = 0; depth < t_["devices"].size() && !id.empty(); ++depth) {
      id = parent(id);
      if (id == p) return true;
    }
    return false;
  }
  // Adds `device` after the last device below `p` at any depth (or after `p`), and `link`
  // after the last link that touches `p`.
  void add_below(const std::string& p, Json device, Json link) {
    int at = index(p);
    for (const Json& d : t_["devices"]) {
      const std::string id = d.value("id", "");
      if (descends(id, p)) at = std::max(at, index(id));
    }
    Json& d = t_["devices"];
    d.insert(d.begin() + at + 1, std::move(device));
    int link_pos = -1;
    const Json& l = t_["links"];
    for (std::size_t i = 0; i < l.size(); ++i)
      if (split_ref(l[i].value("a", "")).first == p || split_ref(l[i].value("b", "")).first == p)
        link_pos = static_cast<int>(i);
    Json& ls = t_["links"];
    ls.insert(link_pos < 0 ? ls.end() : ls.begin() + link_pos + 1, std::move(link));
  }
  // PREFIXn with n one past the highest PREFIXn already in use.
  std::string fresh_id(const std::string& prefix) const {
    const std::regex re("^" + prefix + "([0-9]+)$");
    long long next = 0;
    for (const Json& d : t_["devices"]) {
      std::smatch m;
      const std::string id = d.value("id", "");
      if (std::regex_match(id, m, re)) next = std::max(next, std::atoll(m[1].str().c_str()) + 1);
    }
    while (index(fmt::format("{}{}", prefix, next)) >= 0) ++next;
    return fmt::format("{}{}", prefix, next);
  }
  const Json& device(const std::string& id) const { return t_["devices"][static_cast<std::size_t>(index(id))]; }

  long long count(const Json& v, const std::string& key, long long max) const {
    if (!v.is_number_integer()) fail(key, "", fmt::format("{} is not a whole number", quote_json(v)));
    if (v.is_number_unsigned() ? v.get<unsigned long long>() > static_cast<unsigned long long>(max) : v.get<long long>() > max)
      fail(key, "", fmt::format("{} is more than {}", quote_json(v), max));
    if (!v.is_number_unsigned() && v.get<long long>() < 0)
      fail(key, "", fmt::format("{} is not a count (0 or more)", quote_json(v)));
    return v.get<long long>();
  }

private:
  Json t_;
  const DeriveWhere& where_;
};

struct Edits {
  std::vector<std::string> said;  // each edit in words, for the sources
  std::vector<std::string> name;  // each edit in a word, for the name
};

void move_gpus(Editor& e, const Json& moves, Edits& out) {
  if (!moves.is_object()) e.fail("move", "", "expected an object of GPU: socket, e.g. {\"gpu3\": \"socket1\"}");
  const std::vector<std::string> gpus = e.ids_of("gpu"), sockets = e.ids_of("cpu_socket");
  for (const auto& [gpu, target] : moves.items()) {
    if (e.model(gpu) != "gpu")
      e.fail("move", gpu, fmt::format("no GPU \"{}\" in the topology (its GPUs: {})", quote_text(gpu, 60),
                                      gpus.empty() ? "none" : fmt::format("{}", fmt::join(gpus, ", "))));
    if (!target.is_string()) e.fail("move", gpu, fmt::format("{} is not a socket name (e.g. \"socket1\")", quote_json(target)));
    const std::string name = target.get<std::string>();
    std::string cpu;
    std::smatch m;
    static const std::regex socket_n("^socket([0-9]{1,6})$");
    if (std::regex_match(name, m, socket_n) && std::stoul(m[1].str()) < sockets.size())
      cpu = sockets[std::stoul(m[1].str())];
    else if (e.model(name) == "cpu_socket")
      cpu = name;
    std::string rc;
    if (!cpu.empty())
      for (const std::string& r : e.ids_of("root_complex")) {
        const int l = e.link_at(r + ".cpu");
        if (l < 0) continue;
        const Json& link = e.links()[static_cast<std::size_t>(l)];
        const std::string other = link.value("a", "") == r + ".cpu" ? link.value("b", "") : link.value("a", "");
        if (split_ref(other).first == cpu) rc = r;
      }
    if (cpu.empty()) {
      std::vector<std::string> known;
      for (std::size_t i = 0; i < sockets.size(); ++i) known.push_back(fmt::format("socket{} = {}", i, sockets[i]));
      e.fail("move", gpu, fmt::format("no socket \"{}\" in the topology (its sockets: {})", quote_text(name, 60),
                                      known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
    }
    if (rc.empty()) e.fail("move", gpu, fmt::format("socket {} has no root complex joined to it", cpu));
    // Off its port (the old link's place and protocol kept), onto a free root port of `rc`.
    const int old = e.link_at(gpu + ".up");
    Json protocol = old >= 0 ? protocol_of(e.links()[static_cast<std::size_t>(old)]) : Json{{"pcie", {{"gen", 5}, {"lanes", 16}}}};
    if (old >= 0) e.links().erase(static_cast<std::size_t>(old));
    const std::string port = e.free_port(rc, "rp", "root_ports", 64, "move");
    Json link = {{"a", rc + "." + port}, {"b", gpu + ".up"}};
    for (const auto& [k, v] : protocol.items()) link[k] = v;
    Json& links = e.links();
    links.insert(old >= 0 ? links.begin() + old : links.end(), std::move(link));
    out.said.push_back(fmt::format("{} moved onto {}.{} ({})", gpu, rc, port, cpu));
    out.name.push_back(fmt::format("{}-on-{}", gpu, cpu));
  }
}

// Copies of a device (its parameters, the protocol of its up link) to add elsewhere.
struct Template {
  Json device, protocol;
};
Template template_of(Editor& e, const std::string& id) {
  Template t{e.device(id), Json{{"pcie", {{"gen", 5}, {"lanes", 4}}}}};
  const int l = e.link_at(id + ".up");
  if (l >= 0) t.protocol = protocol_of(e.links()[static_cast<std::size_t>(l)]);
  return t;
}

// Each parent gets `want(parent)` devices of `model` below it: the last ones removed, or
// copies of the last one there (else of `fallback`) added on free ports.
void set_counts(Editor& e, const std::vector<std::string>& parents, const std::string& model, const std::string& prefix,
                const std::function<long long(const std::string&)>& want, const Template& fallback, const std::string& key) {
  for (const std::string& p : parents) {
    std::vector<std::string> have = e.below(p, model);
    const long long n = want(p);
    while (static_cast<long long>(have.size()) > n) {
      e.remove(have.back());
      have.pop_back();
    }
    if (static_cast<long long>(have.size()) >= n) continue;
    const Template t = have.empty() ? fallback : template_of(e, have.back());
    const bool root = e.model(p) == "root_complex";
    for (long long k = static_cast<long long>(have.size()); k < n; ++k) {
      Json d = t.device;
      const std::string id = e.fresh_id(prefix);
      d["id"] = id;
      const std::string port = root ? e.free_port(p, "rp", "root_ports", 64, key)
                                     : e.free_port(p, "dn", "downstream_ports", 128, key);
      Json link = {{"a", p + "." + port}, {"b", id + ".up"}};
      for (const auto& [kk, v] : t.protocol.items()) link[kk] = v;
      e.add_below(p, std::move(d), std::move(link));
    }
  }
}

void drives_per_switch(Editor& e, const Json& v, Edits& out) {
  const long long n = e.count(v, "ssds_per_switch", 128);
  const std::vector<std::string> switches = e.ids_of("pcie_switch"), drives = e.ids_of("nvme_ssd");
  if (switches.empty()) e.fail("ssds_per_switch", "", "the topology has no pcie_switch to put drives under");
  if (drives.empty() && n > 0) e.fail("ssds_per_switch", "", "the topology has no nvme_ssd to copy");
  const Template fallback = drives.empty() ? Template{} : template_of(e, drives.front());
  set_counts(e, switches, "nvme_ssd", "nvme", [n](const std::string&) { return n; }, fallback, "ssds_per_switch");
  out.said.push_back(fmt::format("{} nvme_ssd under each of the {} PCIe switches", n, switches.size()));
  out.name.push_back(fmt::format("{}ssd", n));
}

void nics_per_gpu(Editor& e, const Json& v, Edits& out) {
  const long long n = e.count(v, "nic_rails", 16);
  const std::vector<std::string> gpus = e.ids_of("gpu"), nics = e.ids_of("nic");
  if (gpus.empty()) e.fail("nic_rails", "", "the topology has no GPU to give NICs");
  std::vector<std::string> parents;
  for (const std::string& g : gpus) {
    const std::string p = e.parent(g);
    if (!p.empty() && std::find(parents.begin(), parents.end(), p) == parents.end()) parents.push_back(p);
  }
  Template fallback;
  if (!nics.empty()) {
    fallback = template_of(e, nics.front());
  } else {
    // No NIC to copy: a ConnectX-7 on the link its GPU has.
    fallback.device = {{"model", "nic"}, {"preset", "cx7_400g"}};
    fallback.protocol = template_of(e, gpus.front()).protocol;
  }
  set_counts(e, parents, "nic", "nic", [&](const std::string& p) { return n * static_cast<long long>(e.below(p, "gpu").size()); },
             fallback, "nic_rails");
  out.said.push_back(fmt::format("{} NIC(s) per GPU beside each GPU", n));
  out.name.push_back(fmt::format("{}rail", n));
}

void swap_drives(Editor& e, const Json& v, Edits& out) {
  if (!v.is_string()) e.fail("drive", "", fmt::format("{} is not an nvme_ssd preset name", quote_json(v)));
  const std::string preset = v.get<std::string>();
  const ModelEntry* entry = ModelRegistry::instance().find("device", "nvme_ssd");
  if (!entry || !entry->presets.count(preset)) {
    std::vector<std::string> names;
    if (entry)
      for (const auto& [name, p] : entry->presets) names.push_back(name);
    e.fail("drive", "", fmt::format("unknown nvme_ssd preset \"{}\" (known: {})", quote_text(preset, 60), fmt::join(names, ", ")));
  }
  const std::vector<std::string> drives = e.ids_of("nvme_ssd");
  if (drives.empty()) e.fail("drive", "", "the topology has no nvme_ssd to give a preset");
  // The old drive's own parameters described the old drive: only its id stays.
  for (const std::string& id : drives)
    e.devices()[static_cast<std::size_t>(e.index(id))] = Json{{"id", id}, {"model", "nvme_ssd"}, {"preset", preset}};
  out.said.push_back(fmt::format("every nvme_ssd ({}) a {}", drives.size(), preset));
  out.name.push_back(preset);
}

void derived_pcie_generation(Editor& e, const Json& v, Edits& out) {
  const bool whole = v.is_number_integer() && !(v.is_number_unsigned() && v.get<unsigned long long>() > 6);
  if (!whole || v.get<long long>() < 1 || v.get<long long>() > 6)
    e.fail("pcie_gen", "", fmt::format("{} is not a PCIe generation the pcie link model has (1 to 6)", quote_json(v)));
  const int gen = v.get<int>();
  int changed = 0;
  for (Json& l : e.links())
    if (l.contains("pcie") && l["pcie"].is_object()) {
      l["pcie"]["gen"] = gen;
      ++changed;
    }
  std::vector<std::string> kept;
  const auto& presets = switch_generations();
  const auto target = presets.find(gen);
  for (const std::string& id : e.ids_of("pcie_switch")) {
    Json& d = e.devices()[static_cast<std::size_t>(e.index(id))];
    if (!d.contains("preset") || !d["preset"].is_string()) continue;
    const bool generational = std::any_of(presets.begin(), presets.end(),
                                          [&](const auto& p) { return p.second == d["preset"].get<std::string>(); });
    if (!generational) continue;
    if (target != presets.end())
      d["preset"] = target->second;
    else
      kept.push_back(fmt::format("{} keeps {}", id, d["preset"].get<std::string>()));
  }
  std::string said = fmt::format("PCIe Gen{} on every PCIe link ({})", gen, changed);
  if (target != presets.end()) said += fmt::format(", switches as {}", target->second);
  if (!kept.empty()) said += fmt::format(", no Gen{} switch preset: {}", gen, fmt::join(kept, ", "));
  out.said.push_back(said);
  out.name.push_back(fmt::format("gen{}", gen));
}

}  // namespace

const std::vector<std::string>& derive_keys() {
  static const std::vector<std::string> keys = {"move", "ssds_per_switch", "nic_rails", "drive", "pcie_gen"};
  return keys;
}

Json derive_topology(const Json& base, const Json& spec, const std::string& base_name, const DeriveWhere& where) {
  // The edits read ids, models and ports: the base must be a topology in form first.
  validate_json(topology_schema(), base, base_name, "");
  Editor e(base, where);
  if (!spec.is_object()) e.fail("", "", fmt::format("the edits must be an object (keys: {})", fmt::join(derive_keys(), ", ")));
  for (const auto& [k, v] : spec.items())
    if (std::find(derive_keys().begin(), derive_keys().end(), k) == derive_keys().end())
      e.fail(k, "", fmt::format("unknown edit \"{}\" (known: {})", quote_text(k, 60), fmt::join(derive_keys(), ", ")));
  // Moves first, then counts, then presets; the generation last, so added links get it too.
  Edits edits;
  if (spec.contains("move")) move_gpus(e, spec["move"], edits);
  if (spec.contains("ssds_per_switch")) drives_per_switch(e, spec["ssds_per_switch"], edits);
  if (spec.contains("nic_rails")) nics_per_gpu(e, spec["nic_rails"], edits);
  if (spec.contains("drive")) swap_drives(e, spec["drive"], edits);
  if (spec.contains("pcie_gen")) derived_pcie_generation(e, spec["pcie_gen"], edits);
  Json t = e.take();
  if (edits.said.empty()) return t;
  const std::string name = t.value("name", "topology");
  t["name"] = fmt::format("{}+{}", name, fmt::join(edits.name, "+"));
  const std::string words = fmt::format("{}", fmt::join(edits.said, "; "));
  std::string described = t.value("description", name);
  if (!described.empty() && described.back() != '.') described += '.';
  t["description"] = fmt::format("{} Derived: {}.", described, words);
  if (!t.contains("sources") || !t["sources"].is_array()) t["sources"] = Json::array();
  t["sources"].push_back(fmt::format("derived from {} by iowall topo derive: {}", base_name, words));
  return t;
}

}  // namespace iowall
