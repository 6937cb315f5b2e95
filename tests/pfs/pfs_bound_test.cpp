// The parallel file system on topologies/pfs-4oss.json: what bounds its throughput
// (client NIC, OSS links, OST drives, the MDS), RPC backpressure per OST, determinism.
#include <catch2/catch.hpp>

#include "tests/pfs/pfs_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

TEST_CASE("pfs throughput is bounded by min(client NIC, sum of OSS links, OST drives)", "[pfs][bound]") {
  struct Case {
    const char* what;
    int stripe_count;
    std::string oss_rate;
    double bound;  // GB/s
  };
  // PM1743: 13 GB/s read each. OSTs interleave over the OSS: stripe_count 2 uses two servers.
  const Case cases[] = {{"one OST: its drive", 1, "200 Gb/s", 13.0},
                        {"two OSTs: two drives", 2, "200 Gb/s", 26.0},
                        {"eight OSTs: the client's 400 Gb/s link", 8, "200 Gb/s", roce_payload_GBps(400)},
                        {"eight OSTs behind 4 x 50 Gb/s OSS links", 8, "50 Gb/s", 4 * roce_payload_GBps(50)}};
  for (const Case& c : cases) {
    Json topo = pfs_topology();
    for (int i = 0; i < 4; ++i) link_from(topo, "oss" + std::to_string(i) + "nic.net")["ethernet"]["rate"] = c.oss_rate;
    const Json r = run_nvmeof(topo, pfs_reads("2 GiB", "4 MiB", 8, 4), Json::array({pfs_path("p", c.stripe_count, "2 GiB")}));
    INFO(c.what << ": " << gbps(r, "p") << " GB/s against " << c.bound);
    CHECK(gbps(r, "p") <= c.bound);
    CHECK(gbps(r, "p") >= 0.85 * c.bound);
  }
}

TEST_CASE("pfs never has more than max_rpcs_in_flight RPCs to one OST", "[pfs][rpcs]") {
  for (int limit : {1, 2, 8}) {
    Json path = pfs_path("p", 8, "1 GiB");
    path["max_rpcs_in_flight"] = limit;
    const Json r = run_nvmeof(pfs_topology(), pfs_reads("1 GiB", "4 MiB", 16, 8), Json::array({path}));
    for (int ost = 0; ost < 8; ++ost) {
      const Json& s = r["stats"]["p"]["pfs_client/ost" + std::to_string(ost) + "/rpcs_in_flight"];
      INFO("limit " << limit << ", ost" << ost << ": max " << s["max"]);
      CHECK(s["max"].get<int>() == limit);  // reached, never passed: 128 I/Os want more
    }
  }
}

TEST_CASE("small files are bound by the MDS: files/s <= mds_threads / open_cost", "[pfs][mds]") {
  Json path = pfs_path("p", 1, "64 KiB");
  path["mds_threads"] = 4;
  path["open_cost"] = "100 us";  // 40 k opens/s
  const Json r = run_nvmeof(pfs_topology(), pfs_reads("256 MiB", "64 KiB", 16, 8), Json::array({path}));
  const double iops = r["metrics"]["p"]["iops"];
  INFO(iops << " files/s, " << gbps(r, "p") << " GB/s, limited by " << r["metrics"]["p"]["limited_by"].dump());
  CHECK(iops <= 40000.0);
  CHECK(iops >= 0.95 * 40000.0);
  CHECK(r["metrics"]["p"]["limited_by"]["resource"] == "mdsnic/mds/service");
  // One large file needs one open: the same bytes go at drive and link speed.
  const Json big = run_nvmeof(pfs_topology(), pfs_reads("256 MiB", "64 KiB", 16, 8),
                              Json::array({pfs_path("p", 8, "256 MiB")}));
  CHECK(gbps(big, "p") > 5 * gbps(r, "p"));
}

TEST_CASE("pfs runs are deterministic: the same seed gives byte-identical JSON", "[pfs][determinism]") {
  Json tcp = pfs_path("tcp", 4, "64 MiB");
  tcp["transport"] = "tcp";
  const Json paths = Json::array({pfs_path("rdma", 4, "64 MiB"), tcp});
  const Json a = run_nvmeof(pfs_topology(), pfs_reads("256 MiB", "1 MiB", 4, 4, "random_read"), paths);
  const Json b = run_nvmeof(pfs_topology(), pfs_reads("256 MiB", "1 MiB", 4, 4, "random_read"), paths);
  CHECK(a.dump() == b.dump());
}

TEST_CASE("pfs writes: one OST's drive bounds them, eight OSTs the client link", "[pfs][write]") {
  // PM1743: 6.6 GB/s sequential write each; the OSS fetches the data by RDMA READ.
  const Json paths = Json::array({pfs_path("one", 1, "2 GiB"), pfs_path("eight", 8, "2 GiB")});
  const Json r = run_nvmeof(pfs_topology(), pfs_reads("2 GiB", "4 MiB", 8, 4, "sequential_write"), paths);
  INFO("one OST " << gbps(r, "one") << " GB/s, eight " << gbps(r, "eight"));
  CHECK(gbps(r, "one") <= 6.6);
  CHECK(gbps(r, "one") >= 0.9 * 6.6);
  CHECK(gbps(r, "eight") <= roce_payload_GBps(400));
  CHECK(gbps(r, "eight") >= 0.85 * roce_payload_GBps(400));
}
