// Studies: named experiments kept beside their models (`net_incast` in models/net,
// `cxl_kvcache` in models/cxl), registered by a macro next to their class as models are.
// A study reads every parameter from one Params, so `iowall models` documents it (name,
// unit, default, description, source) and the command line's options pass the same
// checks as a topology's keys; it returns a typed result that writes its own JSON and
// text. A command looks the study up by name, runs it and emits the result, and so
// includes no model header.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/registry.hpp"
#include "sim/core/params.hpp"

namespace iowall {

struct Scenario;
class StatRegistry;

// What a study in models/ may ask of the runners above it (sim/run implements this and
// the command passes it in): the result document of a scenario, and the runner's
// reading of what limited a simulation, so that a study reports both as `iowall run` does.
class ScenarioRunner {
public:
  virtual ~ScenarioRunner() = default;
  virtual Json run(const Scenario& scenario) const = 0;
  // The busiest resource over [0, end] as {"resource", "utilization"}; null when none.
  virtual Json limiting_resource(const StatRegistry& stats, Time end) const = 0;
};

// The inputs of one run of a study that are not its parameters.
struct StudyEnv {
  std::uint64_t seed = 1;                  // every random draw of the run (`--seed`)
  std::vector<std::string> overrides;      // POINTER=VALUE edits of the study's input file (`--set`)
  const ScenarioRunner* runner = nullptr;  // for studies that run scenarios
  // The runner; a study that needs one and was given none is a programming error.
  const ScenarioRunner& scenarios() const;
};

// A study's result, typed by the study and serialized by it once.
class StudyResult {
public:
  virtual ~StudyResult() = default;
  virtual Json to_json() const = 0;
  virtual std::string to_text() const = 0;  // what a person reads in ten seconds
  // The kind a result file declares ("iowall_result"), for results `iowall report`
  // reads; empty when the result is not such a file.
  virtual std::string result_kind() const { return {}; }
};

using StudyFactory = std::function<std::unique_ptr<StudyResult>(const Params&, const StudyEnv&)>;

struct StudyEntry {
  std::string name, description, header;
  StudyFactory run;                          // reads the parameters, refuses unknown keys, runs
  std::function<void(const Params&)> read;   // reads (and so documents) the parameters
};

class StudyRegistry {
public:
  static StudyRegistry& instance();
  void add(StudyEntry e);
  const StudyEntry* find(const std::string& name) const;
  std::vector<std::string> names() const;

private:
  std::map<std::string, StudyEntry> entries_;
};

// Runs study `name` on `params` (unknown keys are refused before any work). Throws
// std::logic_error for a name nothing registered: commands name studies in code.
std::unique_ptr<StudyResult> run_study(const std::string& name, const Params& params, const StudyEnv& env);

namespace detail {
struct StudyRegistrar {
  StudyRegistrar(const char* name, const char* description, const char* header, StudyFactory run,
                 std::function<void(const Params&)> read);
};
}  // namespace detail

// Registers a study class with
//   struct Config; static Config read_config(const Params&);
//   struct Result : StudyResult; static Result run(const Config&, const StudyEnv&);
// under NAME (also listed by `iowall models` in the domain "study"). Put it in the
// class's .cpp file.
#define IOWALL_REGISTER_STUDY(Class, NAME, DESCRIPTION)                                               \
  static const ::iowall::detail::StudyRegistrar IOWALL_CONCAT(iowall_study_, __COUNTER__){               \
      NAME, DESCRIPTION, __FILE__,                                                                     \
      [](const ::iowall::Params& p, const ::iowall::StudyEnv& env) -> std::unique_ptr<::iowall::StudyResult> { \
        const auto config = Class::read_config(p);                                                     \
        p.check_all_used({});                                                                          \
        return std::make_unique<typename Class::Result>(Class::run(config, env));                      \
      },                                                                                               \
      [](const ::iowall::Params& p) { (void)Class::read_config(p); }}

}  // namespace iowall
