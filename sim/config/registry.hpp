// Models register themselves by name with a macro next to their class; there is no
// central list. The domains share one mechanism: devices (topology JSON), link
// protocols, workloads and data paths (scenario JSON), and the child components a model
// chooses by name (an nvme_ssd's "read_service" and "driver"). A model documents itself by
// the parameters it reads: describing it runs the constructor on empty parameters.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/params.hpp"
#include "sim/core/link.hpp"

namespace iowall {

class Device;
class SimContext;
class DataPath;
struct PathEnv;
class Workload;
struct WorkloadEnv;

struct Preset {
  std::string name;
  std::string description;
  std::string source;
  Json values;  // parameter values, merged under the device's own keys
};

struct PortDoc {
  std::string name, description, role;
};
struct StatDoc {
  std::string name, unit, description;
};

struct ModelDoc {
  std::vector<ParamInfo> params;
  std::vector<PortDoc> ports;
  std::vector<StatDoc> stats;
};

using DeviceFactory = std::function<std::unique_ptr<Device>(const Params&, SimContext&)>;
// A link protocol turns the link's protocol object into a LinkSpec.
using LinkFactory = std::function<LinkSpec(const Params&)>;
// A data path (gpu_direct, cpu_gpu, ...) built for one simulation.
using PathFactory = std::function<std::unique_ptr<DataPath>(const Params&, PathEnv&)>;
// A workload (one of its kinds: sequential_read, checkpoint_save, ...) built for one simulation.
using WorkloadFactory = std::function<std::unique_ptr<Workload>(const Params&, WorkloadEnv&)>;

struct ModelEntry {
  std::string domain;  // "device", "link", "workload", "path", or a child component's ("driver", ...)
  std::string name;
  std::string description;
  std::string header;  // where the class lives, for `iowall models`
  DeviceFactory device;
  LinkFactory link;
  PathFactory path;
  WorkloadFactory workload;
  std::function<ModelDoc()> describe;  // runs the constructor on Params::describe()
  std::map<std::string, Preset> presets;
};

class ModelRegistry {
public:
  static ModelRegistry& instance();
  ModelEntry& add(ModelEntry e);
  void add_preset(const std::string& domain, const std::string& model, Preset p);
  const ModelEntry* find(const std::string& domain, const std::string& name) const;
  std::vector<const ModelEntry*> all(const std::string& domain = {}) const;
  std::vector<std::string> names(const std::string& domain) const;

  // Every model built from parameters, as it is built: a listener (a test's) may keep the
  // Params and see, after the run, every key the model read. None by default.
  using BuildListener = std::function<void(const ModelEntry&, const Params&)>;
  void set_build_listener(BuildListener l) { listener_ = std::move(l); }
  void built(const ModelEntry& e, const Params& p) const {
    if (listener_) listener_(e, p);
  }

private:
  BuildListener listener_;
  std::map<std::string, std::map<std::string, ModelEntry>> entries_;  // domain -> name -> entry
  std::vector<std::tuple<std::string, std::string, Preset>> pending_presets_;
};

// Describes a device model by building it on empty parameters in a scratch context.
ModelDoc describe_device(const DeviceFactory& factory);

namespace detail {
struct DeviceRegistrar {
  DeviceRegistrar(const char* name, const char* description, const char* header, DeviceFactory f);
};
struct LinkRegistrar {
  LinkRegistrar(const char* name, const char* description, const char* header, LinkFactory f);
};
struct PathRegistrar {
  // `describe`: reads (and so declares) every parameter the path may read, on any branch.
  PathRegistrar(const char* name, const char* description, const char* header, PathFactory f,
                std::function<void(const Params&)> describe);
};
struct WorkloadRegistrar {
  // `describe`: reads (and so declares) every parameter the workload may read.
  WorkloadRegistrar(const char* name, const char* description, const char* header, WorkloadFactory f,
                    std::function<void(const Params&)> describe);
};
struct PresetRegistrar {
  PresetRegistrar(const char* domain, const char* model, const char* name, const char* description,
                  const char* source, const char* json_values);
};
}  // namespace detail

#define IOWALL_CONCAT_(a, b) a##b
#define IOWALL_CONCAT(a, b) IOWALL_CONCAT_(a, b)

// Registers a Device subclass under a model name: put it in the class's .cpp file.
#define IOWALL_REGISTER_DEVICE(Class, NAME, DESCRIPTION)                                        \
  static const ::iowall::detail::DeviceRegistrar IOWALL_CONCAT(iowall_reg_, __COUNTER__){          \
      NAME, DESCRIPTION, __FILE__,                                                              \
      [](const ::iowall::Params& p, ::iowall::SimContext& c) -> std::unique_ptr<::iowall::Device> { \
        return std::make_unique<Class>(p, c);                                                   \
      }}

// Registers a link protocol (a function Params -> LinkSpec).
#define IOWALL_REGISTER_LINK(NAME, DESCRIPTION, FUNCTION) \
  static const ::iowall::detail::LinkRegistrar IOWALL_CONCAT(iowall_reg_, __COUNTER__){NAME, DESCRIPTION, __FILE__, FUNCTION}

// Registers a DataPath subclass constructed from (const Params&, PathEnv&); its Config, a
// ParamSet (sim/core/params.hpp) built from the same Params, declares its parameters with
// IOWALL_PARAM and so documents them.
#define IOWALL_REGISTER_PATH(Class, NAME, DESCRIPTION)                                           \
  static const ::iowall::detail::PathRegistrar IOWALL_CONCAT(iowall_reg_, __COUNTER__){             \
      NAME, DESCRIPTION, __FILE__,                                                               \
      [](const ::iowall::Params& p, ::iowall::PathEnv& env) -> std::unique_ptr<::iowall::DataPath> { \
        return std::make_unique<Class>(p, env);                                                  \
      },                                                                                         \
      [](const ::iowall::Params& p) { const Class::Config config(p); (void)config; }}

// Registers a Workload subclass for the scenario's workload "kind" NAME, constructed from
// (const Params&, WorkloadEnv&); `DESCRIBE(params)` reads every parameter it may read.
// A class serving several kinds registers once per kind.
#define IOWALL_REGISTER_WORKLOAD(Class, NAME, DESCRIPTION, DESCRIBE)                               \
  static const ::iowall::detail::WorkloadRegistrar IOWALL_CONCAT(iowall_reg_, __COUNTER__){           \
      NAME, DESCRIPTION, __FILE__,                                                                 \
      [](const ::iowall::Params& p, ::iowall::WorkloadEnv& env) -> std::unique_ptr<::iowall::Workload> { \
        return std::make_unique<Class>(p, env);                                                    \
      },                                                                                           \
      DESCRIBE}

// A named set of parameter values for a model, with its source.
#define IOWALL_PRESET(DOMAIN, MODEL, NAME, DESCRIPTION, SOURCE, JSON)                        \
  static const ::iowall::detail::PresetRegistrar IOWALL_CONCAT(iowall_preset_, __COUNTER__){    \
      DOMAIN, MODEL, NAME, DESCRIPTION, SOURCE, JSON}

}  // namespace iowall
