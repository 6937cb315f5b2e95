// Linux's readahead in the buffered read path (cpu_cached), on the fourth GPU VM's
// calibrated topology (topologies/gpu-machine-h200-vm4.json: a virtual disk whose largest
// command is 4 MiB, the queue's max_sectors_kb; read ceiling 2.286 GB/s): the requests the
// disk sees and how deep the reader keeps it.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
Json run(const Json& workload, const Json& paths) {
  const Json doc = {{"name", "r"}, {"topology", "topologies/gpu-machine-h200-vm4.json"}, {"workload", workload},
                    {"paths", paths}};
  return to_json(run_scenario(scenario_from_json(doc, "r.json", IOWALL_SOURCE_DIR)));
}
}  // namespace

TEST_CASE("readahead sends windows of read_ahead_kb in requests of max_sectors_kb, two windows ahead at most",
          "[paths][readahead]") {
  // 256 MiB read in 1 MiB read()s by one thread into mapped host memory, read_ahead 8 MiB,
  // max_sectors 4 MiB: the windows ramp 2, 4, 8 MiB (mm/readahead.c), so the disk gets
  // 4 MiB requests past the first few (256 MiB / 4 MiB = 64, plus the ramp's smaller ones
  // and the two windows past the end): about 66-70 commands, never 256 (one per read()).
  const Json read = {{"kind", "sequential_read"}, {"size", "256 MiB"}, {"io_size", "1 MiB"}, {"threads", 1},
                     {"targets", "dram0"}, {"storage", "disk0"}};
  auto commands = [&](const Json& path) {
    return run(read, Json::array({path}))["stats"]["cpu_cached"]["disk0/commands"]["value"].get<double>();
  };
  const double linux_default = commands({{"name", "cpu_cached"}, {"read_ahead", "8 MiB"}, {"max_sectors", "4 MiB"}});
  CHECK(linux_default >= 64);
  CHECK(linux_default <= 72);
  // POSIX_FADV_SEQUENTIAL doubles the window (16 MiB): still 4 MiB requests.
  const double sequential = commands({{"name", "cpu_cached"}, {"read_ahead", "8 MiB"}, {"fadvise", "sequential"}});
  CHECK(sequential >= 64);
  CHECK(sequential <= 76);
  // POSIX_FADV_RANDOM: each read() reads its own 1 MiB: 256 commands, nothing past the end.
  CHECK(commands({{"name", "cpu_cached"}, {"fadvise", "random"}}) == 256);
  // max_sectors 1280 KiB (kernels before 6.17): windows of 8 MiB go out as 1280 KiB
  // requests: 256 MiB / 1.25 MiB = 205 at least.
  CHECK(commands({{"name", "cpu_cached"}, {"read_ahead", "8 MiB"}, {"max_sectors", "1280 KiB"}}) >= 205);
}

TEST_CASE("readahead hides the disk's latency only as deep as its window", "[paths][readahead]") {
  // A workstation's Gen5 drive (topologies/workstation-gen5.json: a PM1743, 128 KiB
  // commands, tens of us per command): one reader of 1 MiB read()s into mapped host memory.
  // With the default 128 KiB window the drive has one or two 128 KiB commands in flight
  // and their latency shows; with 8 MiB windows it has dozens and the reader's copy or
  // the drive's bandwidth binds.
  const Json read = {{"kind", "sequential_read"}, {"size", "256 MiB"}, {"io_size", "1 MiB"}, {"threads", 1},
                     {"targets", "dram0"}, {"storage", "nvme0"}};
  auto gbps = [&](const char* window) {
    const Json doc = {{"name", "w"}, {"topology", "topologies/workstation-gen5.json"}, {"workload", read},
                      {"paths", Json::array({Json{{"name", "cpu_cached"}, {"read_ahead", window}}})}};
    return to_json(run_scenario(scenario_from_json(doc, "w.json", IOWALL_SOURCE_DIR)))["metrics"]["cpu_cached"]
        ["throughput_GBps"].get<double>();
  };
  const double small = gbps("128 KiB"), large = gbps("8 MiB");
  CHECK(large > 1.3 * small);
  CHECK(large <= 14.0);  // never above the drive's read ceiling (PM1743: 13-14 GB/s)
}
