// Where the work of an NFS-over-RDMA read happens on topologies/dgx2-storage.json: the
// server's nfsd threads, a GPU or NIC on the client's other socket, a bounce buffer in the
// other socket's memory, the socket that runs the client's threads. Each changes the
// answer as its mechanism says; the bounds are derived in the comments.
#include <catch2/catch.hpp>

#include <map>

#include "tests/nfs/nfs_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {
double throughput(const Json& r, const char* path) { return r["metrics"][path]["throughput_GBps"]; }
double iops(const Json& r, const char* path) { return r["metrics"][path]["iops"]; }
std::string limited_by(const Json& r, const char* path) { return r["metrics"][path]["limited_by"]["resource"]; }
double busy(const Json& r, const char* path, const std::string& stat) {
  const Json& s = r["stats"][path];
  return s.contains(stat) ? s[stat]["mean"].get<double>() : 0.0;
}
// RoCEv2 at a 4096 B path MTU: 82 B of headers per packet (models/net/ethernet_link.cpp).
constexpr double kNic100 = 100.0 / 8 * 4096 / (4096 + 82);  // 12.25 GB/s
// The DGX-2's root complexes forward peer-to-peer at 8 GB/s (topologies/dgx2-storage.json).
constexpr double kP2p = 8.0;

Json reads_into(const std::string& gpu, const std::string& io_size = "1 MiB", int threads = 8) {
  Json w = nfs_reads(io_size == "1 MiB" ? "2 GiB" : "64 MiB", io_size, threads, 1);
  w["kind"] = io_size == "1 MiB" ? "sequential_read" : "random_read";
  w["targets"] = gpu;
  return w;
}
}  // namespace

TEST_CASE("nfsd threads bound a cached small-read load at nfsd_threads / server_rpc_cost", "[nfs][nfsd]") {
  // Every READ from the server's cache: an RPC holds an nfsd thread for server_rpc_cost of
  // CPU and nothing else, so n threads serve at most n / 20 us RPCs a second; 64 threads
  // with one 4 KiB read each keep more RPCs waiting than there are threads.
  for (const int n : {2, 4}) {
    const Json r = run_nfs(reads_into("gpu0", "4 KiB", 64),
                           Json::array({nfs_path("nfs", {{"server_cache_hit_ratio", 1.0}, {"nfsd_threads", n},
                                                         {"server_rpc_cost", "20 us"}})}));
    const double bound = n / 20e-6;
    INFO(n << " nfsd threads: " << iops(r, "nfs") << " IOPS against " << bound);
    CHECK(iops(r, "nfs") <= bound * 1.001);
    CHECK(iops(r, "nfs") >= 0.95 * bound);
    CHECK(limited_by(r, "nfs").rfind("scpu/service_threads", 0) == 0);
  }
}

TEST_CASE("a stable write holds its nfsd thread through the drive write", "[nfs][nfsd]") {
  // One nfsd thread and 4 KiB FILE_SYNC writes: the thread serves one RPC at a time, each
  // server_rpc_cost of CPU plus the drive's write, so the rate is below 1 / server_rpc_cost
  // by the write's share; reads of cached data on the same thread reach 1 / server_rpc_cost.
  Json w = reads_into("gpu0", "4 KiB", 16);
  const Json path = nfs_path("nfs", {{"server_cache_hit_ratio", 1.0}, {"nfsd_threads", 1}, {"server_rpc_cost", "20 us"}});
  const Json reads = run_nfs(w, Json::array({path}));
  w["kind"] = "random_write";
  const Json writes = run_nfs(w, Json::array({path}));
  INFO("reads " << iops(reads, "nfs") << " IOPS, writes " << iops(writes, "nfs"));
  CHECK(iops(reads, "nfs") == Approx(1 / 20e-6).epsilon(0.05));
  CHECK(iops(writes, "nfs") < 0.8 * iops(reads, "nfs"));
}

TEST_CASE("GPUDirect RDMA into a GPU on the other socket crosses both root complexes' P2P bridges", "[nfs][placement]") {
  // nic0 sits on gpu0's switch (socket 0); gpu8 is under socket 1. The RDMA WRITE from
  // nic0 into gpu8 is peer-to-peer across rc0, the inter-socket link and rc1: at most the
  // bridges' 8 GB/s, where gpu0 gets the NIC's 12.25 GB/s.
  const Json near = run_nfs(reads_into("gpu0"), Json::array({nfs_path("nfs", {{"nic", "nic0"}})}));
  const Json far = run_nfs(reads_into("gpu8"), Json::array({nfs_path("nfs", {{"nic", "nic0"}})}));
  INFO("gpu0 " << throughput(near, "nfs") << " GB/s, gpu8 " << throughput(far, "nfs"));
  CHECK(throughput(near, "nfs") >= 0.9 * kNic100);
  CHECK(throughput(far, "nfs") <= kP2p);
  CHECK(throughput(far, "nfs") >= 0.9 * kP2p);
  CHECK(limited_by(far, "nfs").find("p2p") != std::string::npos);
}

TEST_CASE("a far-socket NIC filling a bounce buffer crosses the inter-socket link as memory traffic", "[nfs][placement]") {
  // nic4 is under socket 1; the bounce buffer is in dram0, nearest gpu0. The NIC's DMA into
  // the other socket's memory is not peer-to-peer: it crosses the inter-socket link (31 GB/s)
  // and no P2P bridge, so the read keeps the NIC's rate, above the bridges' 8 GB/s. GPUDirect
  // through the same NIC is peer-to-peer and stays at or below 8 GB/s.
  const Json bounce = run_nfs(reads_into("gpu0"), Json::array({nfs_path("nfs", {{"nic", "nic4"}, {"buffer", "host"}})}));
  const Json direct = run_nfs(reads_into("gpu0"), Json::array({nfs_path("nfs", {{"nic", "nic4"}})}));
  INFO("bounce " << throughput(bounce, "nfs") << " GB/s, GPUDirect " << throughput(direct, "nfs"));
  CHECK(throughput(bounce, "nfs") > 1.1 * kP2p);
  CHECK(busy(bounce, "nfs", "rc1/p2p/busy") == 0.0);
  CHECK(busy(bounce, "nfs", "rc0/p2p/busy") == 0.0);
  CHECK(throughput(direct, "nfs") <= kP2p);
}

TEST_CASE("a bounce buffer in the other socket's memory pays the inter-socket link twice", "[nfs][placement]") {
  // gpu0 reads through nic0 into a host bounce buffer, then copies it to the GPU. With the
  // buffer in dram1 (socket 1) the NIC's write crosses the inter-socket link one way and the
  // GPU's copy reads it back the other way: with the link cut to 5 GB/s a direction, at most
  // 5 GB/s; with the buffer in dram0 nothing crosses and the NIC's rate holds.
  Json topo = dgx2_storage_topology();
  link_from(topo, "rc0.peer")["fabric"]["bandwidth"] = "5 GB/s";
  const Json near = run_nfs(reads_into("gpu0"), Json::array({nfs_path("nfs", {{"nic", "nic0"}, {"buffer", "host"}})}), topo);
  const Json far = run_nfs(reads_into("gpu0"),
                           Json::array({nfs_path("nfs", {{"nic", "nic0"}, {"buffer", "host"}, {"bounce_memory", "dram1"}})}),
                           topo);
  INFO("bounce in dram0 " << throughput(near, "nfs") << " GB/s, in dram1 " << throughput(far, "nfs"));
  CHECK(throughput(near, "nfs") > 5.0 * 1.2);
  CHECK(throughput(far, "nfs") <= 5.0);
  CHECK(throughput(far, "nfs") >= 0.85 * 5.0);
  SECTION("nic: the buffer follows the NIC (dram0 here), as near") {
    const Json by_nic = run_nfs(reads_into("gpu0"),
                                Json::array({nfs_path("nfs", {{"nic", "nic0"}, {"buffer", "host"}, {"bounce_memory", "nic"}})}),
                                topo);
    CHECK(throughput(by_nic, "nfs") == Approx(throughput(near, "nfs")));
  }
}

TEST_CASE("the client's per-I/O work runs on the socket the cpu key names", "[nfs][placement]") {
  // By default the thread runs on the socket of its GPU (cpu0 for gpu0); "cpu": "cpu1" moves
  // every submission and completion cost there, and none stays on cpu0.
  const Json here = run_nfs(reads_into("gpu0", "4 KiB", 8), Json::array({nfs_path("nfs")}));
  const Json there = run_nfs(reads_into("gpu0", "4 KiB", 8), Json::array({nfs_path("nfs", {{"cpu", "cpu1"}})}));
  CHECK(busy(here, "nfs", "cpu0/cores/busy") > 0.0);
  CHECK(busy(here, "nfs", "cpu1/cores/busy") == 0.0);
  CHECK(busy(there, "nfs", "cpu1/cores/busy") == Approx(busy(here, "nfs", "cpu0/cores/busy")).epsilon(0.05));
  CHECK(busy(there, "nfs", "cpu0/cores/busy") == 0.0);
}

TEST_CASE("placement keys that name nothing in the node are refused with their pointer", "[nfs][placement]") {
  const auto error = [](const Json& extra) {
    try {
      run_nfs(reads_into("gpu0", "4 KiB", 2), Json::array({nfs_path("nfs", extra)}));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error({{"cpu", "cpu7"}}), Catch::Contains("/paths/0/cpu") && Catch::Contains("cpu_socket"));
  CHECK_THAT(error({{"buffer", "host"}, {"bounce_memory", "gpu1"}}), Catch::Contains("/paths/0/bounce_memory"));
  CHECK_THAT(error({{"buffer", "host"}, {"bounce_memory", "sdram"}}), Catch::Contains("not in the node"));
}

TEST_CASE("target_nic paired: each client port's mount uses one server port, alternately", "[nfs][placement]") {
  // The export is one md RAID0 (its place: the first member, under snic0). gpu0 and gpu2
  // read through their nearest ports nic0 and nic1 (client ports 0 and 1). nearest: both
  // mounts reach the server through snic0, the NIC nearest the array; paired: port 0 ->
  // snic0, port 1 -> snic1. A NIC id sends every mount there.
  Json topo = dgx2_storage_topology();
  topo["devices"].push_back({{"id", "md0"}, {"model", "md_raid0"}, {"members", kServerDrives}});
  Json w = reads_into("gpu0,gpu2", "1 MiB", 4);
  w["storage"] = "md0";
  w["size"] = "512 MiB";
  const auto server_port_busy = [&](const std::string& choice) {
    const Json r = run_nfs(w, Json::array({nfs_path("nfs", {{"target_nic", choice}, {"nic", "nearest"}}, "md0")}), topo);
    std::map<std::string, double> busy;
    for (const auto& [key, value] : r["stats"]["nfs"].items())
      for (const char* nic : {"snic0", "snic1"})
        if (key.starts_with(std::string(nic) + ".net") && key.ends_with("/busy")) busy[nic] += value["mean"].get<double>();
    return busy;
  };
  const auto nearest = server_port_busy("nearest"), paired = server_port_busy("paired"), one = server_port_busy("snic1");
  INFO("nearest snic0 " << nearest.at("snic0") << " snic1 " << nearest.at("snic1") << ", paired " << paired.at("snic0")
                        << " / " << paired.at("snic1"));
  CHECK(nearest.at("snic0") > 0);
  CHECK(nearest.at("snic1") == 0);
  CHECK(paired.at("snic0") > 0);
  CHECK(paired.at("snic1") > 0);
  CHECK(paired.at("snic0") == Approx(paired.at("snic1")).epsilon(0.1));
  CHECK(one.at("snic0") == 0);
  CHECK(one.at("snic1") > 0);
  CHECK_THROWS_WITH(server_port_busy("gpu0"), Catch::Contains("target_nic") && Catch::Contains("not a nic"));
}

TEST_CASE("a client thread asleep on its NFS read wakes from the C-state its core entered", "[nfs][placement][idle]") {
  // One thread, one 64 KiB cached read at a time: the thread sleeps for each (~tens of
  // us). The DGX-2's Xeon 8168 (skx_cstates) against the same CPU that never sleeps: the
  // menu governor picks the deepest state with residency <= the predicted idle and exit
  // latency <= predicted / 11, and the completion waits that exit latency: C1 (2 us) or
  // C1E (10 us) for idle periods of 22 to 600 us. The difference per I/O is one of them.
  // No hand-offs to kernel threads here: their completion core would sleep too
  // (tests/nfs/nfs_handoff_test.cpp).
  const auto mean_us = [](bool sleeps) {
    Json topo = dgx2_storage_topology();
    for (Json& d : topo["devices"])
      if (d["model"] == "cpu_socket" && !sleeps) d["idle_states"] = "";
    Json w = reads_into("gpu0", "64 KiB", 1);
    const Json r = run_nfs(w,
                           Json::array({nfs_path("nfs", {{"server_cache_hit_ratio", 1.0},
                                                         {"client_handoffs", 0},
                                                         {"server_handoffs", 0}})}),
                           topo);
    return r["metrics"]["nfs"]["latency_mean_us"].get<double>();
  };
  const double awake = mean_us(false), asleep = mean_us(true);
  INFO("awake " << awake << " us, with C-states " << asleep << " us");
  // The idle period is about the awake latency (the thread does little else): C1E when
  // its exit fits under awake / 11, else C1 (residency 2 us).
  const double expected = awake / 11 >= 10 ? 10.0 : 2.0;
  CHECK(asleep - awake == Approx(expected).margin(0.1 * expected));
}
