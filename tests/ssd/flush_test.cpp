// A Flush as Linux sends it: only to a drive that reports a volatile write cache (NVMe
// VWC); then a lumped drive takes flush_cost plus the drain of what was written since the
// last Flush at flush_drain_bandwidth. One psync thread, QD1, 128 KiB O_DSYNC writes: each
// write's latency grows by exactly that flush.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/run/runner.hpp"

namespace {

using namespace iowall;

double dsync_write_us(const Json& drive_extra) {
  Json doc = load_json("scenarios/nvme-preset-qd.json", IOWALL_SOURCE_DIR).json;
  doc.erase("sweep");
  Json& drive = doc["topology"]["devices"][3];
  drive = Json{{"id", "nvme0"}, {"model", "nvme_ssd"}, {"media", "lumped"}, {"read_latency", "80 us"},
               {"write_latency", "20 us"}, {"latency_sigma", 0.0}, {"capacity", "1 TB"}, {"write_cache", "0 B"},
               {"flush_cost", "30 us"}};
  drive.update(drive_extra);
  doc["workload"] = {{"kind", "sequential_write"}, {"size", "16 MiB"}, {"io_size", "128 KiB"}, {"threads", 1},
                     {"qd", 1}, {"targets", "dram0"}, {"storage", "nvme0"}, {"durability", "o_dsync"}};
  doc["paths"] = Json::array({"cpu_only"});
  const RunResult r = run_scenario(scenario_from_json(doc, "flush.json", IOWALL_SOURCE_DIR));
  return r.paths.at(0).metrics.latency_mean_us;
}

}  // namespace

TEST_CASE("a flush costs flush_cost plus the drain of the bytes since the last one, and nothing when no volatile "
          "cache is reported",
          "[ssd][flush]") {
  const double none = dsync_write_us({{"reports_volatile_cache", false}});
  const double fixed = dsync_write_us(Json::object());
  // flush_cost 30 us per write.
  CHECK(fixed - none == Approx(30.0).margin(0.1));
  // 128 KiB written since the last flush drains at 1.31072 GB/s in 100 us: +100 us more.
  const double drained = dsync_write_us({{"flush_drain_bandwidth", "1.31072 GB/s"}});
  CHECK(drained - fixed == Approx(100.0).margin(0.1));
}

TEST_CASE("a volatile write cache without power loss protection must be reported", "[ssd][flush]") {
  CHECK_THROWS_WITH(dsync_write_us({{"reports_volatile_cache", false}, {"power_loss_protection", false},
                                    {"write_cache", "1 GiB"}}),
                    Catch::Contains("/reports_volatile_cache") && Catch::Contains("volatile"));
}
