// End-to-end runs of small scenarios: bounds from the mechanisms and Little's law.
#include <catch2/catch.hpp>

#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
Json run(const std::string& workload, const std::string& paths) {
  const std::string text = R"({"name": "t", "topology": "topologies/workstation-gen5.json", "workload": )" + workload +
                           R"(, "paths": )" + paths + "}";
  return to_json(run_scenario(scenario_from_json(Json::parse(text), "t.json", IOWALL_SOURCE_DIR)));
}
}  // namespace

TEST_CASE("no path beats the drives' media or its narrowest link", "[bound]") {
  const Json r = run(R"({"size": "2 GiB", "io_size": "1 MiB", "threads": 8, "targets": "gpu0", "storage": "nvme0,nvme1"})",
                     R"(["gpu_direct", "cpu_gpu", "cpu_only"])");
  for (const char* p : {"gpu_direct", "cpu_gpu", "cpu_only"}) {
    const double gbps = r["metrics"][p]["throughput_GBps"];
    INFO(p);
    CHECK(gbps <= 2 * 13.0);   // two PM1743 at 13 GB/s each
    CHECK(gbps > 0.8 * 26.0);  // and deep enough queues get near it
  }
}

TEST_CASE("one drive at QD1 with 4 KiB reads is latency-bound", "[bound]") {
  const Json r = run(R"({"kind": "random_read", "size": "8 MiB", "io_size": "4 KiB", "threads": 1, "targets": "gpu0", "storage": "nvme0"})",
                     R"(["cpu_only"])");
  const auto& m = r["metrics"]["cpu_only"];
  // PM1743 preset: 60 us page read (tR) and 1.7 us on a 2.4 GB/s flash channel, 4 us of
  // CPU; the NVMe exchange (doorbell, SQ fetch, CQ entry, MSI-X, 1 us interrupt
  // delivery) and the data DMA add a few microseconds more, not tens.
  const double p50 = m["latency_p50_us"].get<double>();
  CHECK(p50 > 60.0 + 1.7 + 4.0 + 1.0);
  CHECK(p50 < 60.0 + 1.7 + 4.0 + 6.0);
  CHECK(m["iops"].get<double>() == Approx(1e6 / m["latency_mean_us"].get<double>()).epsilon(0.02));
}

TEST_CASE("Little's law: IOPS x mean latency = I/Os in flight", "[bound]") {
  for (int threads : {1, 4, 16}) {
    const Json r = run(R"({"kind": "random_read", "size": "64 MiB", "io_size": "16 KiB", "threads": )" +
                           std::to_string(threads) + R"(, "qd": 2, "targets": "gpu0", "storage": "nvme0,nvme1"})",
                       R"(["gpu_direct"])");
    const auto& m = r["metrics"]["gpu_direct"];
    const double in_flight = m["iops"].get<double>() * m["latency_mean_us"].get<double>() / 1e6;
    INFO(threads);
    CHECK(in_flight == Approx(2.0 * threads).epsilon(0.03));
  }
}
