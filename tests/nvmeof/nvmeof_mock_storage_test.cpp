// The NVMe-oF transports against a stand-in target drive: nvme0 of nvmeof-2node.json
// replaced by lumped media of a fixed latency L (sigma 0) and an internal data path far
// faster than the fabric. At one thread and QD1 every 64 KiB read (one command, below
// MDTS) is the drive's L in series with the transport's own costs (capsule, fabric round
// trip, data, completion), which do not depend on L. So the mean latency is at least L,
// moves by exactly L2 - L1 when the mock's latency does, and the throughput is
// S / latency (Little's law at one I/O in flight).
#include <catch2/catch.hpp>

#include "tests/nvmeof/nvmeof_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {

Json run_mock(const char* path, const char* latency) {
  Json topo = nvmeof_topology();
  for (Json& d : topo["devices"])
    if (d["id"] == "nvme0")
      d = {{"id", "nvme0"},           {"model", "nvme_ssd"},  {"read_latency", latency},
           {"latency_sigma", 0},      {"read_bandwidth", "100 GB/s"}, {"max_iops", "10 M/s"}};
  const Json w = {{"kind", "sequential_read"}, {"size", "8 MiB"}, {"io_size", "64 KiB"}, {"threads", 1},
                  {"qd", 1},                   {"targets", "gpu0"}, {"storage", "nvme0"}};
  return run_nvmeof(topo, w, Json::array({path}))["metrics"][path];
}

}  // namespace

TEST_CASE("NVMe-oF at QD1 over a fixed-latency mock drive: L in series with a constant transport cost",
          "[nvmeof][mock]") {
  for (const char* path : {"nvmeof_rdma", "nvmeof_tcp"}) {
    INFO(path);
    const Json a = run_mock(path, "100 us"), b = run_mock(path, "200 us");
    const double lat_a = a["latency_mean_us"], lat_b = b["latency_mean_us"];
    CHECK(lat_a >= 100.0);
    CHECK(lat_b - lat_a == Approx(100.0).margin(0.5));
    // Throughput at one I/O in flight: 64 KiB per mean latency (a submission's own host
    // time may add a little between I/Os, never take away).
    const double little = 65536.0 / (lat_a * 1e-6) / 1e9;
    CHECK(a["throughput_GBps"].get<double>() <= little * 1.001);
    CHECK(a["throughput_GBps"].get<double>() >= 0.95 * little);
  }
}
