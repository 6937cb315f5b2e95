#include "sim/config/study.hpp"

#include <stdexcept>

namespace iowall {

const ScenarioRunner& StudyEnv::scenarios() const {
  if (!runner) throw std::logic_error("this study runs scenarios: its caller must pass a ScenarioRunner");
  return *runner;
}

StudyRegistry& StudyRegistry::instance() {
  static StudyRegistry registry;
  return registry;
}

void StudyRegistry::add(StudyEntry e) {
  const std::string name = e.name;
  entries_[name] = std::move(e);
}

const StudyEntry* StudyRegistry::find(const std::string& name) const {
  const auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : &it->second;
}

std::vector<std::string> StudyRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, e] : entries_) out.push_back(name);
  return out;
}

std::unique_ptr<StudyResult> run_study(const std::string& name, const Params& params, const StudyEnv& env) {
  const StudyEntry* e = StudyRegistry::instance().find(name);
  if (!e) throw std::logic_error("no study registered as \"" + name + "\"");
  return e->run(params, env);
}

namespace detail {

StudyRegistrar::StudyRegistrar(const char* name, const char* description, const char* header, StudyFactory run,
                               std::function<void(const Params&)> read) {
  // `iowall models` lists studies beside the models, documented by reading their
  // parameters from a describing Params, as paths are.
  ModelEntry m;
  m.domain = "study";
  m.name = name;
  m.description = description;
  m.header = header;
  m.describe = [read] {
    const Params p = Params::describe();
    read(p);
    return ModelDoc{p.declared(), {}, {}};
  };
  ModelRegistry::instance().add(std::move(m));
  StudyRegistry::instance().add(StudyEntry{name, description, header, std::move(run), std::move(read)});
}

}  // namespace detail
}  // namespace iowall
