// nvme_ssd "serial_reads": an emulated device that moves each read's data before it takes
// the next command, against a physical SSD whose command processing overlaps earlier
// transfers. Alone a read takes the same time either way; with reads queued the serial
// device gives size / (1/max_iops + size/read_bandwidth) and the other the bandwidth.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
double throughput(bool serial, int qd, bool batched = false, int threads = 1) {
  Json topology = load_json("topologies/gpu-machine.json", IOWALL_SOURCE_DIR).json;
  for (Json& d : topology["devices"])
    if (d["model"] == "nvme_ssd")
      d.update({{"read_latency", "20 us"}, {"read_bandwidth", "2 GB/s"}, {"max_iops", "100 K/s"},
                {"latency_sigma", 0.0}, {"serial_reads", serial}, {"batched_reads", batched}});
  // As a calibrated topology has it: the drive's link at the drive's bandwidth, so that
  // a lone read waits for its data (the data path streams into the DMA, cut-through).
  for (Json& l : topology["links"])
    if (l["b"] == "disk0.up") l = {{"a", l["a"]}, {"b", "disk0.up"}, {"fabric", {{"bandwidth", "2 GB/s"}, {"latency", "20 ns"}}}};
  const Json doc = {{"name", "serial-reads"},
                    {"topology", topology},
                    {"workload", {{"kind", "sequential_read"}, {"size", "64 MiB"}, {"io_size", "128 KiB"},
                                  {"threads", threads}, {"qd", qd}, {"targets", "dram0"}, {"storage", "disk0"}}},
                    {"paths", {"cpu_only"}}};
  const Json r = run_scenario(scenario_from_json(doc, "serial-reads", IOWALL_SOURCE_DIR));
  return r["metrics"]["cpu_only"]["throughput_GBps"].get<double>();
}
}  // namespace

TEST_CASE("serial reads: the same lone read, a lower ceiling when reads queue", "[nvme][ssd]") {
  // Alone: 1/max_iops + latency + size/bandwidth either way, plus the host's costs.
  CHECK(throughput(true, 1) == Approx(throughput(false, 1)).epsilon(0.01));
  // Queued: 131072 B / (10 us + 65.5 us) = 1.736 GB/s in series; 2 GB/s side by side.
  CHECK(throughput(true, 8) == Approx(131072 / (10e-6 + 131072 / 2e9) / 1e9).epsilon(0.03));
  CHECK(throughput(false, 8) == Approx(2.0).epsilon(0.03));
}

TEST_CASE("batched reads: one wake-up per batch of the reads in flight, completed together", "[nvme][ssd]") {
  // Alone, the wake-up (read_latency) comes where the media latency came: the same read.
  CHECK(throughput(true, 1, true) == Approx(throughput(true, 1)).epsilon(0.01));
  // Two in flight: one wake-up serves both, so two reads cost less than twice one, and
  // two threads at QD1 run as one thread at QD2 (as measured, reports/calibration/two-threads.md).
  const double one = throughput(true, 1, true), two = throughput(true, 2, true), pair = throughput(true, 1, true, 2);
  CHECK(two > 1.05 * one);
  CHECK(two < 2.0 * one);
  CHECK(pair == Approx(two).epsilon(0.05));
  // Queued deep, every batch pays a wake-up: below the serial drive's ceiling.
  CHECK(throughput(true, 8, true) < 0.97 * throughput(true, 8));
}
