// The S3-like object store on topologies/pfs-4oss.json's four storage nodes: GET
// latency at low load by hand, first-byte latency hidden by concurrency, TCP's CPU
// against RDMA into GPU memory (cuObject), determinism.
#include <catch2/catch.hpp>

#include "tests/pfs/pfs_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {
Json object_path(const std::string& label, const std::string& transport) {
  return {{"name", "object_store"}, {"label", label}, {"transport", transport}};
}
double client_cores(const Json& r, const std::string& path) { return r["stats"][path]["cpu0/cores/busy"]["mean"]; }
}  // namespace

TEST_CASE("an object GET at low load takes first-byte latency + size / rate", "[objstore][latency]") {
  Json path = object_path("p", "rdma");
  path["part_size"] = "16 MiB";  // one request per object
  const Json r = run_nvmeof(pfs_topology(), pfs_reads("256 MiB", "16 MiB", 1, 1, "random_read"), Json::array({path}));
  // The storage node reads the whole range from one PM1743 (13 GB/s) into memory, then
  // RDMA-writes it over its 200 Gb/s link (RoCEv2 payload rate): store-and-forward.
  const double bytes = 16.0 * 1024 * 1024;
  const double first_byte_us = 2000, request_cpu_us = 20 + 50;
  const double expected_us = first_byte_us + request_cpu_us + bytes / 13e9 * 1e6 + bytes / (roce_payload_GBps(200) * 1e9) * 1e6;
  const double mean_us = r["metrics"]["p"]["latency_mean_us"];
  INFO("mean " << mean_us << " us against " << expected_us << " us by hand");
  CHECK(mean_us == Approx(expected_us).epsilon(0.03));
}

TEST_CASE("concurrency hides first-byte latency for small objects until a resource saturates", "[objstore][concurrency]") {
  const Json paths = Json::array({object_path("p", "rdma")});
  const Json one = run_nvmeof(pfs_topology(), pfs_reads("64 MiB", "1 MiB", 1, 1, "random_read"), paths);
  const Json many = run_nvmeof(pfs_topology(), pfs_reads("512 MiB", "1 MiB", 8, 8, "random_read"), paths);
  INFO("1 stream " << gbps(one, "p") << " GB/s, 64 streams " << gbps(many, "p") << " GB/s");
  // One stream waits 2 ms per 1 MiB object: about 0.5 GB/s, whatever the links.
  CHECK(gbps(one, "p") < 0.6);
  CHECK(gbps(many, "p") > 50 * gbps(one, "p"));
}

TEST_CASE("object GETs over TCP cost client cores per byte, RDMA into GPU memory does not", "[objstore][tcp]") {
  const Json r = run_nvmeof(pfs_topology(), pfs_reads("2 GiB", "64 MiB", 8, 1, "random_read"),
                            Json::array({object_path("tcp", "tcp"), object_path("rdma", "rdma")}));
  const double tcp_gbits = gbps(r, "tcp") * 8;
  INFO("tcp " << gbps(r, "tcp") << " GB/s on " << client_cores(r, "tcp") << " cores; rdma " << gbps(r, "rdma")
              << " GB/s on " << client_cores(r, "rdma"));
  // tcp_rate_per_core: 10 Gb/s per core by default (seed 003).
  CHECK(client_cores(r, "tcp") >= tcp_gbits / 10);
  CHECK(client_cores(r, "rdma") < 0.1 * client_cores(r, "tcp"));
}

TEST_CASE("object store runs are deterministic: the same seed gives byte-identical JSON", "[objstore][determinism]") {
  const Json paths = Json::array({object_path("tcp", "tcp"), object_path("rdma", "rdma")});
  const Json a = run_nvmeof(pfs_topology(), pfs_reads("256 MiB", "4 MiB", 4, 2, "random_read"), paths);
  const Json b = run_nvmeof(pfs_topology(), pfs_reads("256 MiB", "4 MiB", 4, 2, "random_read"), paths);
  CHECK(a.dump() == b.dump());
}
