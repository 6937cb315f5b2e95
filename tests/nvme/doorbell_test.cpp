// Doorbell writes: MMIO register writes vs shadow doorbells (DBBUF) with EventIdx, and
// false sharing of the shadow buffer's cache lines at the default 4 B stride.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
// 16 io_uring threads, one queue pair each, 4 KiB random reads from the workstation's
// PM1743, whose register writes cost 2 us (an emulated controller in a VM). `drive`:
// the drive's own keys; `driver`: its host driver's.
Json run(int qd, Json drive, Json driver = Json::object()) {
  JsonDocument topo = load_json("topologies/workstation-gen5.json", IOWALL_SOURCE_DIR);
  driver.update({{"io_queues", 16}, {"mmio_doorbell_cost", "2 us"}});
  drive["driver"] = driver;
  for (Json& d : topo.json["devices"])
    if (d["id"] == "nvme0") d.update(drive);
  const Json doc = {{"name", "db"},
                    {"topology", topo.json},
                    {"workload",
                     {{"kind", "random_read"}, {"size", "64 MiB"}, {"io_size", "4 KiB"}, {"threads", 16}, {"qd", qd},
                      {"targets", "dram0"}, {"storage", "nvme0"}}},
                    {"paths", Json::array({Json{{"name", "cpu_only"}, {"io_stack", "io_uring"}}})}};
  return to_json(run_scenario(scenario_from_json(doc, "db.json", IOWALL_SOURCE_DIR)));
}
double per_io(const Json& r, const char* stat) {
  return r["stats"]["cpu_only"][std::string("nvme0/nvme/") + stat]["value"].get<double>() /
         r["metrics"]["cpu_only"]["ios"].get<double>();
}
const Json kDbbuf = {{"dbbuf_supported", true}}, kShadow = {{"shadow_doorbells", true}};
}  // namespace

TEST_CASE("MMIO doorbells: an SQ tail and a CQ head write per I/O, counted as CPU busy", "[nvme][doorbell]") {
  const Json mmio = run(8, Json::object());
  CHECK(per_io(mmio, "mmio_doorbell_writes") > 1.8);  // a reap may release several entries
  CHECK(per_io(mmio, "shadow_doorbell_stores") == 0);
  // 2 us per write is most of the CPU per I/O: io_uring's own 1 us is the rest.
  const double us_per_io = mmio["metrics"]["cpu_only"]["cpu_cores_busy"].get<double>() /
                           mmio["metrics"]["cpu_only"]["iops"].get<double>() * 1e6;
  CHECK(us_per_io == Approx(1.0 + 2 * per_io(mmio, "mmio_doorbell_writes")).epsilon(0.05));
}

TEST_CASE("shadow doorbells: a busy controller polls them, an idle one asks for the register", "[nvme][doorbell]") {
  const Json deep = run(8, kDbbuf, kShadow), shallow = run(1, kDbbuf, kShadow), mmio = run(8, Json::object());
  // QD8: the controller always has work on the queue, so no store needs the register.
  CHECK(per_io(deep, "mmio_doorbell_writes") < 0.02);
  CHECK(per_io(deep, "shadow_doorbell_stores") > 1.8);
  // QD1: each I/O finds the controller idle on its queue (EventIdx passed): one MMIO each.
  CHECK(per_io(shallow, "mmio_doorbell_writes") == Approx(1.0).epsilon(0.01));
  // The CPU saved: several times the IOPS per core of register writes.
  CHECK(deep["metrics"]["cpu_only"]["iops_per_cpu_core"].get<double>() >
        3 * mmio["metrics"]["cpu_only"]["iops_per_cpu_core"].get<double>());
}

TEST_CASE("shadow doorbells false-share a cache line at a 4 B stride, not at 64 B", "[nvme][doorbell]") {
  const Json packed = run(8, kDbbuf, kShadow);
  Json wide_drive = kDbbuf;
  wide_drive["doorbell_stride"] = "64 B";
  const Json wide = run(8, wide_drive, kShadow);
  // Sixteen doorbells per line: most stores first take the line from another queue's core.
  CHECK(per_io(packed, "shadow_line_transfers") > 1.0);
  CHECK(per_io(wide, "shadow_line_transfers") == 0);
  CHECK(per_io(packed, "doorbell_write_time") > 5 * per_io(wide, "doorbell_write_time"));
}
