// Every path's storage I/O goes through the drive's NVMe queues, wherever its data goes:
// the SQ entries are fetched from, and the CQ entries written to, host memory.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

TEST_CASE("GDS reads staged through a near GPU still fetch every SQ entry from host memory", "[paths][nvme]") {
  JsonDocument doc = load_json(std::string(IOWALL_SOURCE_DIR) + "/scenarios/dgx2-gds-switch.json");
  doc.json["workload"]["targets"] = "gpu4";  // across the root complex: staged through gpu0
  const Json r = to_json(run_scenario(scenario_from_json(doc.json, "dgx2-gds-switch.json", IOWALL_SOURCE_DIR)));
  const Json& st = r["stats"]["gpu_direct"];
  const double commands = st["nvme0/commands"]["value"].get<double>() + st["nvme1/commands"]["value"].get<double>();
  REQUIRE(commands > 0);
  // The data lands in gpu0's bounce buffers, never in DRAM: what DRAM serves the drives'
  // link is queue traffic, at least one 64 B SQ entry per command.
  CHECK(st["rc0.mem--dram0.mc/b>a/payload_bytes"]["value"].get<double>() >= 64 * commands);
  CHECK(st["rc0.mem--dram0.mc/a>b/payload_bytes"]["value"].get<double>() >= 16 * commands);
}
