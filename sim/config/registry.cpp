#include "sim/config/registry.hpp"

#include "sim/core/device.hpp"
#include "sim/core/sim_context.hpp"

namespace iowall {

ModelRegistry& ModelRegistry::instance() {
  static ModelRegistry registry;
  return registry;
}

ModelEntry& ModelRegistry::add(ModelEntry e) {
  auto& slot = entries_[e.domain][e.name];
  slot = std::move(e);
  // Presets may register before their model (static initialization order across files).
  for (auto it = pending_presets_.begin(); it != pending_presets_.end();) {
    if (std::get<0>(*it) == slot.domain && std::get<1>(*it) == slot.name) {
      Preset p = std::get<2>(*it);
      slot.presets[p.name] = p;
      it = pending_presets_.erase(it);
    } else {
      ++it;
    }
  }
  return slot;
}

void ModelRegistry::add_preset(const std::string& domain, const std::string& model, Preset p) {
  auto d = entries_.find(domain);
  if (d != entries_.end()) {
    auto m = d->second.find(model);
    if (m != d->second.end()) {
      m->second.presets[p.name] = std::move(p);
      return;
    }
  }
  pending_presets_.emplace_back(domain, model, std::move(p));
}

const ModelEntry* ModelRegistry::find(const std::string& domain, const std::string& name) const {
  const auto d = entries_.find(domain);
  if (d == entries_.end()) return nullptr;
  const auto m = d->second.find(name);
  return m == d->second.end() ? nullptr : &m->second;
}

std::vector<const ModelEntry*> ModelRegistry::all(const std::string& domain) const {
  std::vector<const ModelEntry*> out;
  for (const auto& [dom, models] : entries_)
    if (domain.empty() || dom == domain)
      for (const auto& [name, e] : models) out.push_back(&e);
  return out;
}

std::vector<std::string> ModelRegistry::names(const std::string& domain) const {
  std::vector<std::string> out;
  for (const ModelEntry* e : all(domain)) out.push_back(e->name);
  return out;
}

ModelDoc describe_device(const DeviceFactory& factory) {
  SimContext scratch(1);
  Json obj = {{"id", "describe"}};
  const Params params = Params::describe();
  auto dev = factory(params, scratch);
  ModelDoc doc;
  doc.params = params.declared();
  for (const Port* p : dev->ports()) doc.ports.push_back({p->name(), p->description(), port_role_name(p->role())});
  const std::string prefix = dev->name() + "/";
  for (const StatEntry& s : scratch.stats().entries())
    if (s.path.rfind(prefix, 0) == 0) doc.stats.push_back({s.path.substr(prefix.size()), s.unit, s.description});
  return doc;
}

namespace detail {
namespace {
// Documents a model whose parameters are read by `read` from a describing Params.
std::function<ModelDoc()> describe_by_reading(std::function<void(const Params&)> read) {
  return [read] {
    const Params p = Params::describe();
    read(p);
    return ModelDoc{p.declared(), {}, {}};
  };
}
}  // namespace

DeviceRegistrar::DeviceRegistrar(const char* name, const char* description, const char* header, DeviceFactory f) {
  ModelEntry e;
  e.domain = "device";
  e.name = name;
  e.description = description;
  e.header = header;
  e.device = f;
  e.describe = [f] { return describe_device(f); };
  ModelRegistry::instance().add(std::move(e));
}

LinkRegistrar::LinkRegistrar(const char* name, const char* description, const char* header, LinkFactory f) {
  ModelEntry e;
  e.domain = "link";
  e.name = name;
  e.description = description;
  e.header = header;
  e.link = f;
  e.describe = describe_by_reading([f](const Params& p) { f(p); });
  ModelRegistry::instance().add(std::move(e));
}

PathRegistrar::PathRegistrar(const char* name, const char* description, const char* header, PathFactory f,
                             std::function<void(const Params&)> describe) {
  ModelEntry e;
  e.domain = "path";
  e.name = name;
  e.description = description;
  e.header = header;
  e.path = f;
  e.describe = describe_by_reading(std::move(describe));
  ModelRegistry::instance().add(std::move(e));
}

WorkloadRegistrar::WorkloadRegistrar(const char* name, const char* description, const char* header,
                                     WorkloadFactory f, std::function<void(const Params&)> describe) {
  ModelEntry e;
  e.domain = "workload";
  e.name = name;
  e.description = description;
  e.header = header;
  e.workload = f;
  e.describe = describe_by_reading(std::move(describe));
  ModelRegistry::instance().add(std::move(e));
}

PresetRegistrar::PresetRegistrar(const char* domain, const char* model, const char* name, const char* description,
                                 const char* source, const char* json_values) {
  ModelRegistry::instance().add_preset(domain, model,
                                       Preset{name, description, source, Json::parse(json_values)});
}

}  // namespace detail
}  // namespace iowall
