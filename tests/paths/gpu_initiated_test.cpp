// gpu_initiated (BaM-style): GPU threads drive the NVMe queues; no CPU, polled completions.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
Json run(const Json& paths, const char* target = "gpu0") {
  const Json doc = {{"name", "g"},
                    {"topology", "topologies/workstation-gen5.json"},
                    {"workload",
                     {{"kind", "random_read"}, {"size", "128 MiB"}, {"io_size", "4 KiB"}, {"threads", 64}, {"qd", 4},
                      {"targets", target}, {"storage", "nvme0"}}},
                    {"paths", paths}};
  return run_scenario(scenario_from_json(doc, "g.json", IOWALL_SOURCE_DIR));
}
}  // namespace

TEST_CASE("GPU-initiated 4 KiB reads reach the drive's IOPS with no CPU, where cuFile runs out of cores", "[paths][bam]") {
  const Json r = run({"gpu_direct", "gpu_initiated"});
  const Json& bam = r["metrics"]["gpu_initiated"];
  const Json& gds = r["metrics"]["gpu_direct"];
  CHECK(bam["cpu_cores_busy"].get<double>() == 0.0);
  // PM1743: 2.5 M random-read IOPS.
  CHECK(bam["iops"].get<double>() == Approx(2.5e6).epsilon(0.03));
  CHECK(bam["limited_by"]["resource"] == "nvme0/controller");
  CHECK(gds["limited_by"]["resource"] == "cpu0/cores");
  CHECK(gds["iops"].get<double>() < 0.9 * bam["iops"].get<double>());
  // Completions are polled: the drive raised no interrupt; every command posted a CQ entry.
  const Json& st = r["stats"]["gpu_initiated"];
  CHECK(st["nvme0/nvme/interrupts"]["value"].get<double>() == 0);
  CHECK(st["nvme0/nvme/cq_entries"]["value"].get<double>() == bam["ios"].get<double>());
}

TEST_CASE("one global atomic CID counter serializes every command", "[paths][bam]") {
  const Json r = run(Json::array({Json{{"name", "gpu_initiated"}, {"cid_allocation", "global_atomic"},
                                       {"global_atomic_cost", "1 us"}}}));
  const Json& m = r["metrics"]["gpu_initiated"];
  CHECK(m["iops"].get<double>() == Approx(1e6).epsilon(0.02));  // one CID per microsecond
  CHECK(m["limited_by"]["resource"] == "gpu0/cid_counter");
}

TEST_CASE("gpu_initiated into host memory is refused", "[paths][bam]") {
  CHECK_THROWS_AS(run({"gpu_initiated"}, "dram0"), InputError);
}
