// NVMe-oF namespaces as client block storage (models/nvmeof/nvmeof_namespace.hpp) on
// topologies/nvmeof-2node.json: an I/O through a namespace is the transport's I/O plus
// what the calling path adds, and file systems and arrays stack over namespaces.
#include <catch2/catch.hpp>

#include "tests/nvmeof/nvmeof_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {

// The two-node topology with nvme0..3 connected on the client through nic0 (ns0..3), an md
// array of them (nsmd) and ext4 on it (nsfs).
Json with_namespaces(Json extra = Json::object()) {
  Json t = nvmeof_topology();
  for (int i = 0; i < 4; ++i) {
    Json ns = {{"id", "ns" + std::to_string(i)}, {"model", "nvmeof_namespace"}, {"target", "nvme" + std::to_string(i)},
               {"nic", "nic0"}};
    ns.update(extra);
    t["devices"].push_back(ns);
  }
  t["devices"].push_back({{"id", "nsmd"}, {"model", "md_raid0"}, {"members", "ns0,ns1,ns2,ns3"}});
  t["devices"].push_back({{"id", "nsfs"}, {"model", "ext4"}, {"device", "nsmd"}});
  return t;
}

Json small(const std::string& kind, const std::string& storage, const std::string& target) {
  return {{"kind", kind},      {"size", "16 MiB"}, {"io_size", "4 KiB"}, {"threads", 1},
          {"qd", 1},           {"targets", target}, {"storage", storage}};
}

double mean_us(const Json& result, const std::string& path) {
  return result["metrics"][path]["latency_mean_us"].get<double>();
}

}  // namespace

TEST_CASE("A namespace read is the transport's read plus the calling path's own costs", "[nvmeof][namespace]") {
  const Json t = with_namespaces();
  // RDMA into host memory from nvme0 by the nvmeof_rdma path (its target dram0, nearest nic0).
  const Json direct = run_nvmeof(t, small("random_read", "nvme0", "dram0"), Json::array({"nvmeof_rdma"}));
  // cpu_only over ns0: the same RDMA read, after cpu_only's submit and before its complete
  // (2 us each by default): the mean latency is 4 us longer, give or take a histogram step.
  const Json through = run_nvmeof(t, small("random_read", "ns0", "dram0"), Json::array({"cpu_only"}));
  const double added = mean_us(through, "cpu_only") - mean_us(direct, "nvmeof_rdma");
  CHECK(added > 3.0);
  CHECK(added < 5.0);
}

TEST_CASE("The namespace's transport is its own: TCP costs the target's CPU, RDMA does not", "[nvmeof][namespace]") {
  const Json rdma = run_nvmeof(with_namespaces(), small("random_read", "ns0", "dram0"), Json::array({"cpu_only"}));
  const Json tcp = run_nvmeof(with_namespaces({{"transport", "tcp"}}), small("random_read", "ns0", "dram0"),
                              Json::array({"cpu_only"}));
  // NVMe/TCP copies each byte through both hosts' stacks and adds their per-PDU work: a 4 KiB
  // read takes longer than by RDMA.
  CHECK(mean_us(tcp, "cpu_only") > mean_us(rdma, "cpu_only"));
}

TEST_CASE("ext4 over md over namespaces: an O_DSYNC write commits its journal on the remote drives",
          "[nvmeof][namespace]") {
  Json w = small("sequential_write", "nsfs", "dram0");
  w["io_size"] = "128 KiB";
  w["durability"] = "o_dsync";
  const Json fs = run_nvmeof(with_namespaces(), w, Json::array({"cpu_only"}));
  w["storage"] = "nsmd";
  const Json md = run_nvmeof(with_namespaces(), w, Json::array({"cpu_only"}));
  // On a new file every write allocates: ext4 writes journal blocks and a commit block over
  // the fabric (two more round trips) where the bare array only flushes.
  CHECK(mean_us(fs, "cpu_only") > mean_us(md, "cpu_only") + 20.0);
  // 16 MiB of 128 KiB writes, each allocating: 128 commits, and the journal's blocks went to
  // the target's drives as NVMe-oF commands beside the 128 data writes.
  const Json& stats = fs["stats"]["cpu_only"];
  CHECK(stats["nsfs/commits"]["value"].get<i64>() == 128);
  i64 commands = 0;
  for (int i = 0; i < 4; ++i) commands += stats["ns" + std::to_string(i) + "/ios"]["value"].get<i64>();
  CHECK(commands > 128);
}

TEST_CASE("A namespace names one client NIC", "[nvmeof][namespace]") {
  CHECK_THROWS_WITH(run_nvmeof(with_namespaces({{"nic", "nearest"}}), small("random_read", "ns0", "dram0"),
                               Json::array({"cpu_only"})),
                    Catch::Contains("/nic") && Catch::Contains("one client NIC"));
}

TEST_CASE("A namespace's flush is a Flush command across the fabric", "[nvmeof][namespace]") {
  Json w = small("sequential_write", "ns0", "dram0");
  w["io_size"] = "128 KiB";
  w["durability"] = "none";
  const double plain = mean_us(run_nvmeof(with_namespaces(), w, Json::array({"cpu_only"})), "cpu_only");
  w["durability"] = "o_dsync";
  const double synced = mean_us(run_nvmeof(with_namespaces(), w, Json::array({"cpu_only"})), "cpu_only");
  // Each O_DSYNC write adds a Flush: the initiator's submit and complete (2 + 2 us), the
  // capsule's and the response's trips through both NICs, and the drive's flush (5 us).
  // A flush sent straight to the drive would add only its 5 us.
  CHECK(synced - plain > 9.0);
}
