// The InfiniBand switch (models/net/infiniband_switch.hpp): its forwarding latency on a
// route, and per packet its credits per lane: an 8:1 incast over InfiniBand is lossless
// without PAUSE or marks, and no ingress holds more than the credits it advertised.
#include <catch2/catch.hpp>

#include <fstream>

#include "sim/config/topology.hpp"
#include "sim/core/error.hpp"
#include "tests/nvmeof/nvmeof_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {
// topologies/nvmeof-incast.json (8 targets, one client port, all at 100 Gb/s) with its
// switch made `model` and its links of `protocol`.
Json incast(const std::string& model, const std::string& protocol) {
  std::ifstream in(std::string(IOWALL_SOURCE_DIR) + "/topologies/nvmeof-incast.json");
  Json t = Json::parse(in);
  for (Json& d : t["devices"])
    if (d["id"] == "fsw") d = {{"id", "fsw"}, {"model", model}, {"ports_count", 9}};
  for (Json& l : t["links"])
    if (l.contains("ethernet") && protocol != "ethernet") {
      l[protocol] = l["ethernet"];
      l.erase("ethernet");
    }
  return t;
}
Time route_latency(const Json& doc) {
  SimContext ctx(1);
  Topology topo(ctx, doc, "t.json");
  const Route& r = topo.route(*topo.find("nic0"), *topo.find("t0nic"));
  Time sum;
  for (const Hop& h : r.hops) sum += h.latency;
  return sum;
}
double stat(const Json& r, const std::string& name) { return r["stats"]["ib"][name]["value"].get<double>(); }
}  // namespace

TEST_CASE("a route across an InfiniBand switch carries its cut-through latency", "[net][infiniband]") {
  // Same cables and NICs; the Ethernet switch forwards in 600 ns, the InfiniBand one
  // (QM8700 default) in 130 ns: the route differs by exactly 470 ns.
  const Time eth = route_latency(incast("ethernet_switch", "infiniband"));
  const Time ib = route_latency(incast("infiniband_switch", "infiniband"));
  CHECK((eth - ib).whole_ns() == 470);
}

TEST_CASE("per packet, an InfiniBand incast is lossless by credits: no PAUSE, no marks, ingress within credits",
          "[net][infiniband][packet]") {
  const Json path = {{"name", "nvmeof_rdma"}, {"label", "ib"}, {"fabric", "packet"}};
  const Json r = run_nvmeof(incast("infiniband_switch", "infiniband"),
                            reads("256 MiB", "nvme0,nvme1,nvme2,nvme3,nvme4,nvme5,nvme6,nvme7"), Json::array({path}));
  INFO(r["metrics"]["ib"].dump());
  CHECK(stat(r, "net/drops") == 0);
  CHECK(stat(r, "net/pause_frames") == 0);
  CHECK(stat(r, "net/ecn_marks") == 0);
  CHECK(r["metrics"]["ib"]["bytes"].get<double>() == 256 << 20);
  // Eight ingresses feed the client's egress, each holding at most its credits for lane 0:
  // 512 KiB over 8 lanes = 64 KiB each, so the egress queue stays within 8 x 64 KiB.
  CHECK(stat(r, "net/queue_max_bytes") <= 8 * 65536);
  CHECK(stat(r, "net/queue_max_bytes") > 65536);  // the incast did back up
  // The client's 100 Gb/s port binds: at most 12.5 GB/s, and the credits keep it busy
  // (4 KiB packets carry at least 97% payload; allow the I/Os' start and end).
  const double gbps = r["metrics"]["ib"]["throughput_GBps"].get<double>();
  CHECK(gbps <= 12.5);
  CHECK(gbps >= 0.85 * 12.5);
}

TEST_CASE("the per-packet network refuses a mix of Ethernet and InfiniBand", "[net][infiniband][errors]") {
  const Json path = {{"name", "nvmeof_rdma"}, {"label", "ib"}, {"fabric", "packet"}};
  CHECK_THROWS_WITH(run_nvmeof(incast("infiniband_switch", "ethernet"), reads("64 MiB", "nvme0"), Json::array({path})),
                    Catch::Contains("/fabric") && Catch::Contains("infiniband") && Catch::Contains("is ethernet"));
}
