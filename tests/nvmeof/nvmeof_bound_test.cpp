// NVMe-oF reads from the storage server of topologies/nvmeof-2node.json: what bounds
// them, what TCP costs in cores, what a NIC on the other socket costs, and determinism.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/nvmeof/nvmeof_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {
const char* kFourDrives = "nvme0,nvme1,nvme2,nvme3";
// RoCEv2 at a 4096 B path MTU: 82 B of headers per packet (models/net/ethernet_link.cpp).
double roce_GBps(double line_Gbps) { return line_Gbps / 8 * 4096.0 / (4096 + 82); }
double throughput(const Json& r, const char* path) { return r["metrics"][path]["throughput_GBps"]; }
}  // namespace

TEST_CASE("NVMe-oF/RDMA throughput is bounded by min(fabric, target SSDs, PCIe)", "[nvmeof][bound]") {
  struct Case {
    const char* what;
    std::string rate, storage;
    double bound;  // GB/s
  };
  // PM1743: 13 GB/s read each; Gen5 x16 (about 53 GB/s of DMA writes) is above both.
  const Case cases[] = {{"fabric-bound: 400 Gb/s, four drives", "400 Gb/s", kFourDrives, roce_GBps(400)},
                        {"fabric-bound: 100 Gb/s", "100 Gb/s", kFourDrives, roce_GBps(100)},
                        {"drive-bound: one drive", "400 Gb/s", "nvme0", 13.0}};
  for (const Case& c : cases) {
    Json topo = nvmeof_topology();
    link_from(topo, "nic0.net")["ethernet"]["rate"] = c.rate;
    const Json r = run_nvmeof(topo, reads("2 GiB", c.storage), Json::array({"nvmeof_rdma"}));
    INFO(c.what << ": " << throughput(r, "nvmeof_rdma") << " GB/s against " << c.bound);
    CHECK(throughput(r, "nvmeof_rdma") <= c.bound);
    CHECK(throughput(r, "nvmeof_rdma") >= 0.85 * c.bound);
  }
}

TEST_CASE("NVMe-oF/TCP busies about one client core per tcp_rate_per_core of data", "[nvmeof][tcp]") {
  for (const char* rate : {"10 Gb/s", "40 Gb/s"}) {
    const Json r = run_nvmeof(nvmeof_topology(), reads("2 GiB", kFourDrives),
                              Json::array({{{"name", "nvmeof_tcp"}, {"tcp_rate_per_core", rate}}}));
    const double gbps = throughput(r, "nvmeof_tcp") * 8;
    const double per_core = std::string(rate) == "10 Gb/s" ? 10 : 40;
    const double client_cores = r["stats"]["nvmeof_tcp"]["cpu0/cores/busy"]["mean"];
    INFO(rate << ": " << gbps << " Gb/s, " << client_cores << " client cores");
    // The per-byte work dominates; the per-I/O costs (4 us per 1 MiB I/O plus the copy
    // launch) add a few percent.
    CHECK(client_cores >= gbps / per_core);
    CHECK(client_cores == Approx(gbps / per_core).epsilon(0.10));
  }
}

TEST_CASE("a NIC on the other socket is slower when the inter-socket link is the bottleneck", "[nvmeof][multirail]") {
  Json topo = nvmeof_topology();
  link_from(topo, "rc0.peer")["fabric"]["bandwidth"] = "20 GB/s";
  const Json paths = Json::array({{{"name", "nvmeof_rdma"}, {"label", "local"}},
                                  {{"name", "nvmeof_rdma"}, {"label", "remote"}, {"nic", "nic1"}}});
  const Json r = run_nvmeof(topo, reads("2 GiB", kFourDrives), paths);
  INFO("local " << throughput(r, "local") << " GB/s, remote " << throughput(r, "remote"));
  CHECK(throughput(r, "remote") <= 20.0);
  CHECK(throughput(r, "remote") >= 0.85 * 20.0);
  CHECK(throughput(r, "local") > 2 * throughput(r, "remote"));
  CHECK(r["metrics"]["remote"]["latency_p50_us"].get<double>() > r["metrics"]["local"]["latency_p50_us"].get<double>());
}

TEST_CASE("NVMe-oF runs are deterministic: the same seed gives byte-identical JSON", "[nvmeof][determinism]") {
  const Json paths = Json::array({"nvmeof_rdma", "nvmeof_tcp", {{"name", "nvmeof_rdma"}, {"label", "b"}, {"buffer", "host"}}});
  const Json a = run_nvmeof(nvmeof_topology(), reads("256 MiB", kFourDrives), paths);
  const Json b = run_nvmeof(nvmeof_topology(), reads("256 MiB", kFourDrives), paths);
  CHECK(a.dump() == b.dump());
}

// Placement only moves work where it names another socket: with the client's work and its bounce
// buffer named on gpu0's own socket (cpu0, dram0: what "gpu", the default, picks), nothing crosses
// sockets and the JSON is byte for byte the one without placement keys; the buffer in the other
// socket's memory (dram1) makes the NIC's writes and the GPU's copy cross the inter-socket link.
TEST_CASE("placement naming the GPU's own socket changes nothing, and the other socket's memory does", "[nvmeof][placement]") {
  const Json plain = Json::array({{{"name", "nvmeof_rdma"}, {"label", "bounce"}, {"buffer", "host"}}});
  const Json near = Json::array({{{"name", "nvmeof_rdma"}, {"label", "bounce"}, {"buffer", "host"}, {"cpu", "cpu0"},
                                  {"bounce_memory", "dram0"}}});
  const Json far = Json::array({{{"name", "nvmeof_rdma"}, {"label", "bounce"}, {"buffer", "host"},
                                 {"bounce_memory", "dram1"}}});
  const Json a = run_nvmeof(nvmeof_topology(), reads("256 MiB", kFourDrives), plain);
  const Json b = run_nvmeof(nvmeof_topology(), reads("256 MiB", kFourDrives), near);
  const Json c = run_nvmeof(nvmeof_topology(), reads("256 MiB", kFourDrives), far);
  CHECK(a.dump() == b.dump());
  CHECK(a["metrics"].dump() != c["metrics"].dump());
}

TEST_CASE("NVMe-oF/RDMA writes: the target's drives bound them, in-capsule data saves the RDMA READ", "[nvmeof][write]") {
  Json big = reads("2 GiB", kFourDrives);
  big["kind"] = "sequential_write";
  const Json r = run_nvmeof(nvmeof_topology(), big, Json::array({"nvmeof_rdma"}));
  // PM1743: 6.6 GB/s sequential write each.
  CHECK(throughput(r, "nvmeof_rdma") <= 4 * 6.6);
  CHECK(throughput(r, "nvmeof_rdma") >= 0.9 * 4 * 6.6);

  Json small = reads("16 MiB", "nvme0", 1, 1);
  small["kind"] = "random_write";
  small["io_size"] = "4 KiB";
  const Json paths = Json::array({{{"name", "nvmeof_rdma"}, {"label", "in_capsule"}},
                                  {{"name", "nvmeof_rdma"}, {"label", "rdma_read"}, {"inline_data_size", "0 B"}}});
  const Json q = run_nvmeof(nvmeof_topology(), small, paths);
  const double inline_us = q["metrics"]["in_capsule"]["latency_mean_us"], read_us = q["metrics"]["rdma_read"]["latency_mean_us"];
  INFO("in-capsule " << inline_us << " us, RDMA READ " << read_us << " us");
  // The READ costs a request across the wire, the client HCA's work and the data's way back.
  CHECK(read_us > inline_us + 1.0);
}

TEST_CASE("a one-segment NVMe/TCP read pays its send, wire and receive work in series", "[nvmeof][tcp]") {
  // A 4 KiB read is one TCP segment: the target's stack builds it whole before the NIC
  // sends it, and the client's stack takes it once it has all arrived. At 10 Gb/s per
  // core on each end that is 4096 B x 8 / 10 Gb/s = 3.28 us of send work, then 3.28 us
  // of receive work, one after the other: the read is slower, by the two together
  // (6.55 us), than the same read whose stacks cost nothing per byte. Cut through, the
  // two would overlap and cost about one of them.
  const Json workload = {{"kind", "random_read"}, {"size", "64 MiB"}, {"io_size", "4 KiB"}, {"threads", 1},
                         {"qd", 1},           {"targets", "gpu0"}, {"storage", "nvme0"}};
  const Json paths = Json::array({{{"name", "nvmeof_tcp"}, {"label", "stacks"}},
                                  {{"name", "nvmeof_tcp"}, {"label", "free"}, {"tcp_rate_per_core", "10000 Gb/s"},
                                   {"target_tcp_rate_per_core", "10000 Gb/s"}}});
  const Json r = run_nvmeof(nvmeof_topology(), workload, paths);
  const double stacks = r["metrics"]["stacks"]["latency_mean_us"], free = r["metrics"]["free"]["latency_mean_us"];
  const double both = 2 * 4096.0 * 8 / 10e3;  // us
  INFO("stacks " << stacks << " us, free " << free << " us, two stacks' work " << both << " us");
  CHECK(stacks - free >= 0.95 * both);
  CHECK(stacks - free <= 1.10 * both);
}
