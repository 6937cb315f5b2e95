// nfs_rdma reads from the storage server of topologies/dgx2-storage.json into gpu0: RPC
// counts, the slot bound, what bounds throughput, the server's CPU, determinism.
#include <catch2/catch.hpp>

#include "tests/nfs/nfs_fixture.hpp"

using namespace iowall;
using namespace iowall::testing;

namespace {
// RoCEv2 at a 4096 B path MTU: 82 B of headers per packet (models/net/ethernet_link.cpp).
double roce_GBps(double line_Gbps) { return line_Gbps / 8 * 4096.0 / (4096 + 82); }
double throughput(const Json& r, const char* path) { return r["metrics"][path]["throughput_GBps"]; }
}  // namespace

TEST_CASE("an I/O becomes ceil(io_size / rsize) READ RPCs", "[nfs][rpc]") {
  struct Case {
    const char *io_size, *rsize;
    double rpcs;  // 64 MiB read: (64 MiB / io_size) I/Os x ceil(io_size / rsize)
  };
  const Case cases[] = {{"4 MiB", "1 MiB", 16 * 4}, {"4 MiB", "256 KiB", 16 * 16}, {"1 MiB", "768 KiB", 64 * 2},
                        {"64 KiB", "1 MiB", 1024 * 1}};
  for (const Case& c : cases) {
    const Json r = run_nfs(nfs_reads("64 MiB", c.io_size, 4, 2), Json::array({nfs_path("nfs", {{"rsize", c.rsize}})}));
    INFO(c.io_size << " I/Os, rsize " << c.rsize);
    CHECK(nfs_stat(r, "nfs", "nfs_client/rpcs", "value") == c.rpcs);
  }
}

TEST_CASE("never more than nconnect x max_slots RPCs in flight", "[nfs][slots]") {
  // 8 threads x QD4 x 4 MiB I/Os of four 1 MiB RPCs: 128 RPCs wanted at once.
  struct Case {
    int nconnect, max_slots;
  };
  for (const Case c : {Case{1, 128}, Case{1, 4}, Case{2, 3}, Case{4, 8}, Case{16, 1}}) {
    const Json r = run_nfs(nfs_reads("256 MiB", "4 MiB", 8, 4),
                           Json::array({nfs_path("nfs", {{"nconnect", c.nconnect}, {"max_slots", c.max_slots}})}));
    INFO("nconnect " << c.nconnect << " x max_slots " << c.max_slots);
    CHECK(nfs_stat(r, "nfs", "nfs_client/rpcs_in_flight", "max") == std::min(128, c.nconnect * c.max_slots));
  }
}

TEST_CASE("nfs_rdma throughput is bounded by min(client NIC, server drives or cache, PCIe)", "[nfs][bound]") {
  struct Case {
    const char* what;
    std::string drives;
    double hit_ratio, bound;  // GB/s
  };
  // The DGX-2 NIC: 100 Gb/s; a PM1743 on a Gen4 x4 link: at most 4 x 16 GT/s x 128/130 / 8 = 7.88 GB/s.
  const Case cases[] = {{"NIC-bound: eight drives", kServerDrives, 0.0, roce_GBps(100)},
                        {"drive-bound: one drive, cold", "snvme0", 0.0, 7.88},
                        {"NIC-bound: one drive, all in the server's cache", "snvme0", 1.0, roce_GBps(100)}};
  for (const Case& c : cases) {
    const Json r = run_nfs(nfs_reads("2 GiB", "1 MiB", 8, 4),
                           Json::array({nfs_path("nfs", {{"server_cache_hit_ratio", c.hit_ratio}}, c.drives)}));
    INFO(c.what << ": " << throughput(r, "nfs") << " GB/s against " << c.bound);
    CHECK(throughput(r, "nfs") <= c.bound);
    CHECK(throughput(r, "nfs") >= 0.8 * c.bound);
  }
  SECTION("a 400 Gb/s link: the NIC's PCIe Gen3 x16 binds") {
    Json topo = dgx2_storage_topology();
    link_from(topo, "nic0.net")["ethernet"]["rate"] = "400 Gb/s";
    const Json r = run_nfs(nfs_reads("2 GiB", "1 MiB", 8, 4), Json::array({nfs_path("nfs")}), topo);
    const double gen3_x16 = 16 * 8.0 * 128 / 130 / 8;  // 15.75 GB/s before TLP headers
    INFO(throughput(r, "nfs") << " GB/s against Gen3 x16 " << gen3_x16);
    CHECK(throughput(r, "nfs") <= gen3_x16);
    CHECK(throughput(r, "nfs") > roce_GBps(100));
  }
}

TEST_CASE("the server's CPU is about RPC rate x server_rpc_cost", "[nfs][cpu]") {
  // All reads from the server's cache: no drive interrupts, only nfsd's work per RPC.
  for (const char* rsize : {"1 MiB", "256 KiB"}) {
    const Json r = run_nfs(nfs_reads("1 GiB", "1 MiB", 8, 4),
                           Json::array({nfs_path("nfs", {{"rsize", rsize}, {"server_cache_hit_ratio", 1.0},
                                                         {"server_rpc_cost", "50 us"}})}));
    const double seconds = r["metrics"]["nfs"]["last_done_s"];
    const double rpc_rate = nfs_stat(r, "nfs", "nfs_client/rpcs", "value") / seconds;
    const double cores = nfs_stat(r, "nfs", "scpu/cores/busy", "mean");
    INFO("rsize " << rsize << ": " << rpc_rate << " RPC/s, " << cores << " server cores");
    CHECK(cores == Approx(rpc_rate * 50e-6).epsilon(0.05));
  }
}

TEST_CASE("nfs_rdma runs are deterministic: the same seed gives byte-identical JSON", "[nfs][determinism]") {
  const Json paths = Json::array({nfs_path("a", {{"server_cache_hit_ratio", 0.3}}),
                                  nfs_path("b", {{"buffer", "host"}, {"nconnect", 4}})});
  const Json a = run_nfs(nfs_reads("256 MiB", "1 MiB", 8, 2), paths);
  const Json b = run_nfs(nfs_reads("256 MiB", "1 MiB", 8, 2), paths);
  CHECK(a.dump() == b.dump());
}
