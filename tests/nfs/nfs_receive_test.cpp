// How an NFS server takes calls off a connection (sunrpc's XPT_BUSY): before Linux 5.13
// (xprt_busy after_receive) a connection's next call is taken only once a thread has
// received the current one, so one connection carries at most 2 / server_rpc_cost calls
// a second (this path charges the first half of server_rpc_cost to the receipt), and
// nconnect connections that many times more; from 5.13 (at_dequeue) only the nfsd
// threads bound it. Cached 4 KiB reads on topologies/dgx2-storage.json; the bounds are
// derived in the comments.
#include <catch2/catch.hpp>

#include "tests/nfs/nfs_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {
double iops(const Json& r) { return r["metrics"]["nfs"]["iops"]; }
std::string limited_by(const Json& r) { return r["metrics"]["nfs"]["limited_by"]["resource"]; }

// 64 threads each with one cached 4 KiB READ in flight, 64 nfsd threads of 20 us each:
// the threads allow 64 / 20 us = 3.2M calls a second, far above what one connection
// receives before 5.13.
Json cached_reads(const char* xprt_busy, int nconnect) {
  Json w = nfs_reads("64 MiB", "4 KiB", 64, 1);
  w["kind"] = "random_read";
  return run_nfs(w, Json::array({nfs_path("nfs", {{"server_cache_hit_ratio", 1.0},
                                                  {"nfsd_threads", 64},
                                                  {"server_rpc_cost", "20 us"},
                                                  {"xprt_busy", xprt_busy},
                                                  {"nconnect", nconnect}})}));
}
}  // namespace

TEST_CASE("before 5.13 a connection takes one call at a time: at most 2 / server_rpc_cost calls a second",
          "[nfs][receive]") {
  // Each call holds its connection for the first half of server_rpc_cost (10 us): one
  // connection 100k calls a second, nconnect n of them n x 100k (the RPCs go round-robin).
  for (const int n : {1, 2, 4}) {
    const Json r = cached_reads("after_receive", n);
    const double bound = n / 10e-6;
    INFO("nconnect " << n << ": " << iops(r) << " IOPS against " << bound << ", limited by " << limited_by(r));
    CHECK(iops(r) <= bound * 1.001);
    CHECK(iops(r) >= 0.95 * bound);
    CHECK(limited_by(r).rfind("scpu/receive/", 0) == 0);
  }
  SECTION("each connection has its own gauge, named by client port and index") {
    const Json r = cached_reads("after_receive", 2);
    const Json& s = r["stats"]["nfs"];
    REQUIRE(s.contains("scpu/receive/nic0/busy"));
    REQUIRE(s.contains("scpu/receive/nic0.1/busy"));
    CHECK(s["scpu/receive/nic0.1/busy"]["mean"].get<double>() > 0.99);
  }
}

TEST_CASE("from 5.13 a connection's calls are taken as they come: the same load is not held to one connection's rate",
          "[nfs][receive]") {
  // at_dequeue: no receive gate; 64 threads of 20 us allow 3.2M calls a second, so one
  // connection carries well above the 100k that after_receive allows it.
  const Json before = cached_reads("after_receive", 1);
  const Json after = cached_reads("at_dequeue", 1);
  INFO("after_receive " << iops(before) << " IOPS, at_dequeue " << iops(after) << ", limited by " << limited_by(after));
  CHECK(iops(after) > 3 * iops(before));
  CHECK(!after["stats"]["nfs"].contains("scpu/receive/nic0/busy"));
}
