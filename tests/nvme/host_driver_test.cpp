// The host NVMe driver, a named child component of nvme_ssd: chosen by name or by an
// object of its parameters, each driver documenting its own; polling decided by the
// driver's kind and the submitter's request alone.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/registry.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
// One thread of 4 KiB random reads at QD1 from the workstation's nvme0 into host memory,
// the drive's "driver" set to `driver` (absent when null).
Json run(const Json& driver, const char* io_stack = "psync") {
  JsonDocument topo = load_json("topologies/workstation-gen5.json", IOWALL_SOURCE_DIR);
  for (Json& d : topo.json["devices"])
    if (d["id"] == "nvme0" && !driver.is_null()) d["driver"] = driver;
  const Json doc = {{"name", "drv"},
                    {"topology", topo.json},
                    {"workload",
                     {{"kind", "random_read"}, {"size", "4 MiB"}, {"io_size", "4 KiB"}, {"threads", 1}, {"qd", 1},
                      {"targets", "dram0"}, {"storage", "nvme0"}}},
                    {"paths", Json::array({Json{{"name", "cpu_only"}, {"io_stack", io_stack}}})}};
  return to_json(run_scenario(scenario_from_json(doc, "drv.json", IOWALL_SOURCE_DIR)));
}
double stat(const Json& r, const char* name) {
  return r["stats"]["cpu_only"][std::string("nvme0/nvme/") + name]["value"].get<double>();
}
double latency(const Json& r) { return r["metrics"]["cpu_only"]["latency_mean_us"].get<double>(); }
std::vector<std::string> param_names(const char* domain, const char* model) {
  std::vector<std::string> out;
  for (const ParamInfo& p : ModelRegistry::instance().find(domain, model)->describe().params) out.push_back(p.name);
  return out;
}
bool has(const std::vector<std::string>& v, const char* s) { return std::find(v.begin(), v.end(), s) != v.end(); }
}  // namespace

TEST_CASE("a driver by name, by object and by default is the same driver", "[nvme][driver]") {
  const Json plain = run(nullptr), named = run("irq"), object = run({{"model", "irq"}, {"io_queues", 32}}),
             unnamed = run({{"io_queues", 32}});
  CHECK(latency(named) == latency(plain));
  CHECK(latency(object) == latency(plain));
  CHECK(latency(unnamed) == latency(plain));
  CHECK(stat(plain, "interrupts") == stat(plain, "cq_entries"));  // one MSI-X per completion
}

TEST_CASE("the polled driver takes no interrupt, an irq driver polls only what the submitter polls", "[nvme][driver]") {
  const Json polled = run("polled");
  CHECK(stat(polled, "interrupts") == 0);
  CHECK(stat(polled, "cq_entries") > 0);
  // io_uring IOPOLL asks for polled queues: the irq driver polls them, no interrupt either.
  const Json iopoll = run("irq", "io_uring_poll");
  CHECK(stat(iopoll, "interrupts") == 0);
  // The interrupt (1 us) against the poll (100 ns) is what polling saves.
  CHECK(latency(run("irq")) - latency(polled) == Approx(1.0).margin(0.3));
}

TEST_CASE("each driver documents its own parameters, the drive only its own", "[nvme][driver]") {
  const auto irq = param_names("driver", "irq"), polled = param_names("driver", "polled");
  const auto drive = param_names("device", "nvme_ssd");
  for (const char* common : {"io_queues", "queue_entries", "cid_bits", "doorbell_batch", "shadow_doorbells", "poll_delay"}) {
    CHECK(has(irq, common));
    CHECK(has(polled, common));
    CHECK_FALSE(has(drive, common));
  }
  for (const char* interrupt : {"interrupt_latency", "msix_vectors", "coalesce_count", "coalesce_time", "cq_scan_cost"}) {
    CHECK(has(irq, interrupt));
    CHECK_FALSE(has(polled, interrupt));
    CHECK_FALSE(has(drive, interrupt));
  }
  CHECK(has(drive, "driver"));
  CHECK(has(drive, "max_queues"));
  CHECK(has(drive, "dbbuf_supported"));
}
