// NVMe-oF/RDMA reads with the network simulated per packet ("fabric": "packet") on
// topologies/nvmeof-incast.json: eight targets into one client's 100 Gb/s port.
#include <catch2/catch.hpp>

#include <fstream>

#include "tests/nvmeof/nvmeof_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {
const char* kEight = "nvme0,nvme1,nvme2,nvme3,nvme4,nvme5,nvme6,nvme7";

Json incast_topology() {
  std::ifstream in(std::string(IOWALL_SOURCE_DIR) + "/topologies/nvmeof-incast.json");
  return Json::parse(in);
}
Json packet(const char* label, bool dcqcn = true) {
  return {{"name", "nvmeof_rdma"}, {"label", label}, {"fabric", "packet"}, {"dcqcn", dcqcn}};
}
double stat(const Json& r, const char* path, const std::string& name) {
  return r["stats"][path][name]["value"].get<double>();
}
double metric(const Json& r, const char* path, const char* name) { return r["metrics"][path][name].get<double>(); }
// Frame bytes of one 1 MiB read on the wire: 256 packets of 4096 B with 62 B of headers
// (Ethernet, IPv4, UDP, BTH, ICRC) and the WRITE's RETH, then the 16 B response SEND.
constexpr i64 kFramesPerRead = (1 << 20) + 256 * 62 + 16 + (16 + 62 + 16);
}  // namespace

TEST_CASE("per-packet incast: PFC pauses the targets and loses nothing, every byte arrives", "[nvmeof][packet]") {
  const Json r = run_nvmeof(incast_topology(), reads("256 MiB", kEight), Json::array({packet("pfc", false)}));
  INFO(r["metrics"]["pfc"].dump());
  CHECK(stat(r, "pfc", "net/drops") == 0);
  CHECK(stat(r, "pfc", "net/pause_frames") > 0);
  CHECK(stat(r, "pfc", "net/paused_ns") > 0);
  CHECK(stat(r, "pfc", "net/cnps") == 0);  // DCQCN off: marks are not answered
  CHECK(metric(r, "pfc", "bytes") == 256 << 20);
  double frames = 0;
  for (int i = 0; i < 8; ++i) frames += stat(r, "pfc", "net/t" + std::to_string(i) + "nic>nic0/delivered_bytes");
  CHECK(frames == Approx(256.0 * kFramesPerRead).epsilon(0));
  // The switch's queue towards the client grows past XOFF per ingress, not past the buffer.
  CHECK(stat(r, "pfc", "net/queue_max_bytes") > 1e6);
  CHECK(stat(r, "pfc", "net/queue_max_bytes") <= 16e6);
}

TEST_CASE("per-packet incast with DCQCN: marks, CNPs and rate cuts, less queue than PFC alone", "[nvmeof][packet][dcqcn]") {
  const Json r = run_nvmeof(incast_topology(), reads("256 MiB", kEight),
                            Json::array({packet("dcqcn"), packet("pfc", false)}));
  CHECK(stat(r, "dcqcn", "net/drops") == 0);
  CHECK(stat(r, "dcqcn", "net/ecn_marks") > 0);
  CHECK(stat(r, "dcqcn", "net/cnps") > 0);
  for (int i = 0; i < 8; ++i) {
    const std::string flow = "net/t" + std::to_string(i) + "nic>nic0/";
    INFO(flow);
    CHECK(stat(r, "dcqcn", flow + "rate_min_Mbps") < 100'000);  // each target was slowed
    CHECK(stat(r, "pfc", flow + "rate_min_Mbps") == 100'000);   // without DCQCN none is
  }
  CHECK(stat(r, "dcqcn", "net/queue_mean_bytes") < stat(r, "pfc", "net/queue_mean_bytes"));
  CHECK(stat(r, "dcqcn", "net/paused_ns") < stat(r, "pfc", "net/paused_ns"));
}

TEST_CASE("per-packet and served networks agree where nothing congests, incast stays under the port", "[nvmeof][packet][bound]") {
  // One target: a 100 Gb/s path end to end, no incast.
  const Json paths = Json::array({{{"name", "nvmeof_rdma"}, {"label", "served"}}, packet("packet")});
  const Json one = run_nvmeof(incast_topology(), reads("256 MiB", "nvme0"), paths);
  CHECK(metric(one, "packet", "throughput_GBps") == Approx(metric(one, "served", "throughput_GBps")).epsilon(0.03));
  CHECK(metric(one, "packet", "latency_p50_us") == Approx(metric(one, "served", "latency_p50_us")).epsilon(0.05));
  CHECK(stat(one, "packet", "net/pause_frames") == 0);
  // Eight targets: the client's port bounds all (RoCEv2 at 4096 B MTU: 82 B per packet).
  // PFC alone keeps the port busy; DCQCN's cuts leave it idle at times, so only the bound.
  const Json all = run_nvmeof(incast_topology(), reads("256 MiB", kEight),
                              Json::array({paths[0], paths[1], packet("pfc", false)}));
  const double port = 100.0 / 8 * 4096 / (4096 + 82);
  for (const char* p : {"served", "packet", "pfc"}) {
    INFO(p << ": " << metric(all, p, "throughput_GBps") << " GB/s");
    CHECK(metric(all, p, "throughput_GBps") <= port);
    if (std::string(p) != "packet") CHECK(metric(all, p, "throughput_GBps") >= 0.95 * port);
  }
}

TEST_CASE("per-packet NVMe-oF runs are deterministic", "[nvmeof][packet][determinism]") {
  const Json paths = Json::array({packet("a"), packet("b", false)});
  const Json a = run_nvmeof(incast_topology(), reads("64 MiB", kEight), paths);
  const Json b = run_nvmeof(incast_topology(), reads("64 MiB", kEight), paths);
  CHECK(a.dump() == b.dump());
}

TEST_CASE("a parallel file system's RDMA transport takes the per-packet network too", "[nvmeof][packet][pfs]") {
  const Json workload = {{"kind", "sequential_read"}, {"size", "256 MiB"}, {"io_size", "4 MiB"}, {"threads", 8},
                         {"qd", 4}, {"targets", "gpu0"}, {"storage", "all"}};
  const Json path = {{"name", "pfs"},           {"mds_nic", "mdsnic"}, {"file_size", "1 GiB"},
                     {"stripe_count", 8},       {"fabric", "packet"},  {"dcqcn", false}};
  std::ifstream in(std::string(IOWALL_SOURCE_DIR) + "/topologies/pfs-4oss.json");
  const Json r = run_nvmeof(Json::parse(in), workload, Json::array({path}));
  CHECK(metric(r, "pfs", "bytes") == 256 << 20);
  CHECK(stat(r, "pfs", "net/drops") == 0);
  // Four servers share the client's port: its queue grows past Kmin and gets marked.
  CHECK(stat(r, "pfs", "net/ecn_marks") > 0);
  CHECK(stat(r, "pfs", "net/queue_max_bytes") > 400e3);
}
