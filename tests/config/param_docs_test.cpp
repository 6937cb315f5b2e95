// Every key a model reads is one its documentation lists: every shipped scenario is run
// and every shipped topology built (with a few variants that take other branches) while
// the registry hands the test the parameters of every model built (devices, links,
// paths, host drivers); afterwards, each key a model read must be in its describe()
// list, which is what `iowall models NAME` and the JSON schema show.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>

#include "sim/config/json_file.hpp"
#include "sim/config/registry.hpp"
#include "sim/config/scenario.hpp"
#include "sim/config/topology.hpp"
#include "sim/core/sim_context.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/sanitized.hpp"

using namespace iowall;

namespace {

struct Built {
  const ModelEntry* entry;
  Params params;
  std::string where;  // the file it came from
};

// Records every model built while it lives.
class BuildRecorder {
public:
  BuildRecorder() {
    ModelRegistry::instance().set_build_listener(
        [this](const ModelEntry& e, const Params& p) { built.push_back({&e, p, current}); });
  }
  ~BuildRecorder() { ModelRegistry::instance().set_build_listener({}); }
  std::vector<Built> built;
  std::string current;
};

std::vector<std::filesystem::path> shipped(const char* folder) {
  std::vector<std::filesystem::path> out;
  for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(IOWALL_SOURCE_DIR) / folder))
    if (f.path().extension() == ".json") out.push_back(f.path());
  std::sort(out.begin(), out.end());
  return out;
}

void run(BuildRecorder& rec, Json doc, const std::string& name) {
  rec.current = name;
  doc.erase("sweep");  // the sweeps change workload values only
  // Under the sanitizers, fewer bytes: the same models are built with the same parameters.
  if (const std::string size = testing::sanitized_size(doc); !size.empty()) doc["workload"]["size"] = size;
  run_scenario(scenario_from_json(doc, name, IOWALL_SOURCE_DIR));
}

}  // namespace

TEST_CASE("every key a model reads in the shipped scenarios and topologies is documented", "[config][docs]") {
  BuildRecorder rec;
  for (const auto& file : shipped("scenarios")) {
    const Json doc = load_json(file.string()).json;
    if (!doc.contains("paths")) continue;  // a plan, not a run
    INFO(file.string());
    run(rec, doc, file.filename().string());
  }
  for (const auto& file : shipped("topologies")) {
    INFO(file.string());
    rec.current = file.filename().string();
    SimContext ctx(1);
    const Topology t(ctx, load_json(file.string()).json, file.string());
  }
  // Branches the shipped files do not take: the other NVMe-oF transport, the polled host
  // driver, pinned and warm cpu_cached, per-I/O registration, lookups of GPU queues.
  const Json base = load_json("scenarios/nvmeof-read.json", IOWALL_SOURCE_DIR).json;
  Json tcp = base;
  tcp["paths"] = Json::array({Json{{"name", "nvmeof"}, {"transport", "tcp"}}});
  run(rec, tcp, "nvmeof-read.json (tcp)");
  Json ws = {{"name", "variants"},
             {"topology", "topologies/workstation-gen5.json"},
             {"workload",
              {{"kind", "random_read"}, {"size", "16 MiB"}, {"io_size", "64 KiB"}, {"threads", 4}, {"qd", 2},
               {"targets", "gpu0"}, {"storage", "nvme0"}}},
             {"paths", Json::array({Json{{"name", "cpu_cached"}, {"user_buffer", "pinned"}, {"cache_at_start", "warm"}},
                                    Json{{"name", "gpu_direct"}, {"registration", "per_io"}},
                                    Json{{"name", "gpu_initiated"}, {"cq_lookup", "scan"}},
                                    Json{{"name", "cpu_gpu"}, {"io_stack", "io_uring_poll"}}})}};
  run(rec, ws, "workstation variants");
  JsonDocument polled = load_json("topologies/workstation-gen5.json", IOWALL_SOURCE_DIR);
  for (Json& d : polled.json["devices"])
    if (d["model"] == "nvme_ssd") d["driver"] = {{"model", "polled"}, {"io_queues", 8}};
  ws["topology"] = polled.json;
  run(rec, ws, "workstation, polled driver");

  std::map<const ModelEntry*, std::set<std::string>> documented;
  std::set<std::string> seen;
  for (const Built& b : rec.built) {
    auto [it, fresh] = documented.try_emplace(b.entry);
    if (fresh)
      for (const ParamInfo& p : b.entry->describe().params) it->second.insert(p.name);
    seen.insert(b.entry->domain + "/" + b.entry->name);
    for (const ParamInfo& p : b.params.declared()) {
      INFO(b.entry->domain << " " << b.entry->name << " read \"" << p.name << "\" in " << b.where
                           << "; `iowall models " << b.entry->name << "` does not list it");
      CHECK(it->second.count(p.name) == 1);
    }
  }
  // The run reached every kind of model that reads parameters.
  for (const char* m : {"device/nvme_ssd", "device/gpu", "device/nic", "link/pcie", "path/gpu_direct", "path/nvmeof",
                        "path/nvmeof_tcp", "path/pfs", "path/object_store", "path/nfs_rdma", "driver/irq",
                        "driver/polled"}) {
    INFO(m);
    CHECK(seen.count(m) == 1);
  }
}

TEST_CASE("every registered model documents itself without error", "[config][docs]") {
  // Read services document the drive parameters they use: each must be one the drive declares.
  for (const ModelEntry* e : ModelRegistry::instance().all()) {
    INFO(e->domain << " " << e->name);
    CHECK_NOTHROW(e->describe());
  }
  CHECK(ModelRegistry::instance().all("read_service").size() == 3);
  CHECK(ModelRegistry::instance().all("driver").size() == 2);
}
