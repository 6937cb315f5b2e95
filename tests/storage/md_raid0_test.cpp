// md RAID0 (models/storage/md_raid0.hpp) against raid0.c's mapping and the bounds its
// mechanism implies: pieces at chunk boundaries, one member per chunk, the members in
// parallel until the PCIe link they share binds, a flush on every member, bad input named.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <map>
#include <memory>

#include "models/storage/md_raid0.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/fake_storage.hpp"
#include "tests/support/topology_error.hpp"

using namespace iowall;

namespace {
constexpr i64 KiB = 1024, MiB = 1024 * KiB;

// Four PM1743 drives (Gen5 x4) and a GPU under one Gen5 switch whose uplink to the root
// complex is `uplink_lanes` wide; md0 stripes over the first `members` drives.
Json topology(int members, const std::string& chunk = "512 KiB", int uplink_lanes = 8) {
  Json devices = Json::array({
      {{"id", "cpu0"}, {"model", "cpu_socket"}, {"cores", 16}, {"frequency", "3.0 GHz"}, {"memcpy_per_core", "12 GB/s"}},
      {{"id", "dram0"}, {"model", "dram"}, {"bandwidth", "307 GB/s"}, {"capacity", "256 GiB"}},
      {{"id", "rc0"}, {"model", "root_complex"}, {"root_ports", 1}, {"p2p_bandwidth", "20 GB/s"}},
      {{"id", "sw0"}, {"model", "pcie_switch"}, {"preset", "pex89000"}, {"downstream_ports", 5}},
      {{"id", "gpu0"}, {"model", "gpu"}, {"preset", "h100_pcie"}},
  });
  Json links = Json::array({
      {{"a", "cpu0.fabric"}, {"b", "rc0.cpu"}, {"fabric", {{"bandwidth", "200 GB/s"}, {"latency", "40 ns"}}}},
      {{"a", "rc0.mem"}, {"b", "dram0.mc"}, {"fabric", {{"bandwidth", "307 GB/s"}, {"latency", "80 ns"}}}},
      {{"a", "rc0.rp0"}, {"b", "sw0.up"}, {"pcie", {{"gen", 5}, {"lanes", uplink_lanes}}}},
      {{"a", "sw0.dn0"}, {"b", "gpu0.up"}, {"pcie", {{"gen", 5}, {"lanes", 16}}}},
  });
  std::string ids;
  for (int i = 0; i < 4; ++i) {
    devices.push_back({{"id", fmt::format("nvme{}", i)}, {"model", "nvme_ssd"}, {"preset", "pm1743"}});
    links.push_back({{"a", fmt::format("sw0.dn{}", i + 1)}, {"b", fmt::format("nvme{}.up", i)},
                     {"pcie", {{"gen", 5}, {"lanes", 4}}}});
    if (i < members) ids += (ids.empty() ? "" : ",") + fmt::format("nvme{}", i);
  }
  devices.push_back({{"id", "md0"}, {"model", "md_raid0"}, {"members", ids}, {"chunk", chunk}});
  return {{"name", "raid-test"}, {"devices", devices}, {"links", links}};
}

Json run(const Json& topo, const Json& workload, const Json& paths) {
  const Json doc = {{"name", "r"}, {"topology", topo}, {"workload", workload}, {"paths", paths}, {"seed", 1}};
  return to_json(run_scenario(scenario_from_json(doc, "r.json", IOWALL_SOURCE_DIR)));
}
double stat(const Json& r, const std::string& path, const std::string& name) {
  return r["stats"][path][name]["value"].get<double>();
}
double gbps(const Json& r, const std::string& path) { return r["metrics"][path]["throughput_GBps"].get<double>(); }
Json sequential(const std::string& storage, const std::string& target = "gpu0") {
  return {{"kind", "sequential_read"}, {"size", "2 GiB"}, {"io_size", "1 MiB"}, {"threads", 8}, {"qd", 4},
          {"targets", target}, {"storage", storage}};
}
}  // namespace

TEST_CASE("raid0 maps offsets as raid0.c: chunk c on member c mod N at (c / N) x chunk", "[storage][raid0]") {
  const Bytes chunk(512 * KiB);
  const auto at = [&](i64 offset, int n) { return raid0_place(Bytes(offset), chunk, n); };
  CHECK(at(0, 4).member == 0);
  CHECK(at(0, 4).offset.n == 0);
  CHECK(at(512 * KiB - 1, 4).member == 0);
  CHECK(at(512 * KiB, 4).member == 1);
  CHECK(at(512 * KiB, 4).offset.n == 0);
  // Chunk 3 + 100 B: member 3, its first chunk.
  CHECK(at(3 * 512 * KiB + 100, 4).member == 3);
  CHECK(at(3 * 512 * KiB + 100, 4).offset.n == 100);
  // Chunk 4 wraps to member 0 as its second chunk.
  CHECK(at(2 * MiB + 4 * KiB, 4).member == 0);
  CHECK(at(2 * MiB + 4 * KiB, 4).offset.n == 512 * KiB + 4 * KiB);
  // Three members: chunk 5 is member 2's second chunk (5 mod 3 = 2, 5 / 3 = 1).
  CHECK(at(5 * 512 * KiB + 7, 3).member == 2);
  CHECK(at(5 * 512 * KiB + 7, 3).offset.n == 512 * KiB + 7);
  // A 64 KiB chunk: offset 1 MiB is chunk 16, member 0 of 4, its fifth chunk.
  CHECK(raid0_place(Bytes(MiB), Bytes(64 * KiB), 4).member == 0);
  CHECK(raid0_place(Bytes(MiB), Bytes(64 * KiB), 4).offset.n == 4 * 64 * KiB);
}

TEST_CASE("raid0 limits: N x the smallest member in whole chunks, one chunk per command, summed depth",
          "[storage][raid0]") {
  SimContext ctx(1);
  Json t = topology(3);
  t["devices"][6]["capacity"] = "1 TB";  // nvme1 smaller than the 7.68 TB of the others
  const Topology topo(ctx, t, "t.json");
  const BlockStorage& md = topo.block_storage("md0", "t.json", "");
  const BlockLimits& one = topo.block_storage("nvme0", "t.json", "").limits();
  // 1 TB = 10^12 B holds 1,907,348 whole 512 KiB chunks (1,907,348.6...).
  CHECK(md.limits().capacity.n == 3 * (1'000'000'000'000 / (512 * KiB)) * (512 * KiB));
  CHECK(md.limits().lba_size == one.lba_size);
  CHECK(md.limits().max_transfer.n == 512 * KiB);
  CHECK(md.limits().queue_depth == 3 * one.queue_depth);
  CHECK(md.stacked());
  CHECK(&md.place() == &topo.block_storage("nvme0", "t.json", "").device());
}

TEST_CASE("a 4 KiB random read touches one member, a 1 MiB read with a 512 KiB chunk touches two", "[storage][raid0]") {
  const Json topo = topology(4);
  // 4 KiB I/Os are 4 KiB aligned, so none crosses a 512 KiB chunk boundary: one piece each.
  const Json small = run(topo, {{"kind", "random_read"}, {"size", "8 MiB"}, {"io_size", "4 KiB"}, {"threads", 4},
                                {"qd", 4}, {"targets", "gpu0"}, {"storage", "md0"}},
                         {"gpu_direct"});
  const double ios = stat(small, "gpu_direct", "md0/ios");
  CHECK(ios == 2048);
  CHECK(stat(small, "gpu_direct", "md0/pieces") == ios);
  double commands = 0;
  for (int i = 0; i < 4; ++i) commands += stat(small, "gpu_direct", fmt::format("nvme{}/commands", i));
  CHECK(commands == ios);  // a 4 KiB piece is one NVMe command on one drive

  // One 1 MiB read at offset 0: chunks 0 and 1, 512 KiB on nvme0 and 512 KiB on nvme1,
  // each four 128 KiB commands (the PM1743's MDTS); nvme2 and nvme3 stay idle.
  const Json one = run(topo, {{"kind", "sequential_read"}, {"size", "1 MiB"}, {"io_size", "1 MiB"}, {"threads", 1},
                              {"qd", 1}, {"targets", "gpu0"}, {"storage", "md0"}},
                       {"gpu_direct"});
  CHECK(stat(one, "gpu_direct", "md0/ios") == 1);
  CHECK(stat(one, "gpu_direct", "md0/pieces") == 2);
  CHECK(stat(one, "gpu_direct", "nvme0/commands") == 4);
  CHECK(stat(one, "gpu_direct", "nvme1/commands") == 4);
  CHECK(stat(one, "gpu_direct", "nvme2/commands") == 0);
  CHECK(stat(one, "gpu_direct", "nvme3/commands") == 0);
}

TEST_CASE("sequential 1 MiB reads on RAID0 of N drives approach N x one drive until the shared uplink binds",
          "[storage][raid0][bound]") {
  // Into the GPU under the drives' switch (gpu_direct), pieces go drive -> switch -> GPU
  // and never cross the uplink: RAID0 of 2 and of 4 scale with the drives, each piece
  // a plain read of one drive, so at most N x one drive, and at least 90% of it (the
  // GPU's x16 link, ~57 GB/s of payload, is above 4 x ~13 GB/s).
  const Json single = run(topology(2), sequential("nvme0"), {"gpu_direct", "cpu_only"});
  const double one = gbps(single, "gpu_direct");
  for (int n : {2, 4}) {
    const Json r = run(topology(n), sequential("md0"), {"gpu_direct"});
    INFO(n << " members: " << gbps(r, "gpu_direct") << " GB/s, one drive " << one);
    CHECK(gbps(r, "gpu_direct") <= n * one * 1.01);
    CHECK(gbps(r, "gpu_direct") >= 0.9 * n * one);
  }
  // Into host memory (cpu_only) every piece crosses the switch's Gen5 x8 uplink: 8 lanes x
  // 32 GT/s x 128/130 = 31.5 GB/s on the wire, of which posted writes of 256 B payload with
  // 24 B of TLP framing carry 256/280: 28.8 GB/s. Two drives (~2 x 13 GB/s) fit under it;
  // four (~52 GB/s) are held to it.
  const double host_one = gbps(single, "cpu_only");
  const double uplink = 8 * 32.0 * 128 / 130 / 8 * 256 / 280;
  const Json two = run(topology(2), sequential("md0", "dram0"), {"cpu_only"});
  CHECK(gbps(two, "cpu_only") <= 2 * host_one * 1.01);
  CHECK(gbps(two, "cpu_only") >= 0.9 * std::min(2 * host_one, uplink));
  const Json four = run(topology(4), sequential("md0", "dram0"), {"cpu_only"});
  INFO("four members into host memory: " << gbps(four, "cpu_only") << " GB/s, uplink " << uplink);
  CHECK(gbps(four, "cpu_only") <= uplink * 1.001);
  CHECK(gbps(four, "cpu_only") >= 0.9 * uplink);
  CHECK(gbps(four, "cpu_only") < 0.6 * 4 * host_one);  // the uplink, not the drives, binds
}

namespace {
using iowall::testing::FakeRoutes;
using iowall::testing::FakeStore;
struct Array {
  SimContext ctx{1};
  std::vector<std::unique_ptr<FakeStore>> stores;
  std::unique_ptr<MdRaid0> md;
  FakeRoutes routes;
  RouteMover mover{ctx};
  const Route given{{}, {"md0", "gpu0"}};
  explicit Array(int n) {
    std::string ids;
    for (int i = 0; i < n; ++i) {
      stores.push_back(std::make_unique<FakeStore>(ctx, fmt::format("d{}", i)));
      ids += (i ? "," : "") + fmt::format("d{}", i);
    }
    md = std::make_unique<MdRaid0>(Params(Json{{"id", "md0"}, {"model", "md_raid0"}, {"members", ids}}, {"t.json", "/devices/9"}), ctx);
    md->find_devices([this](const std::string& id) -> Device* {
      for (auto& s : stores)
        if (s->name() == id) return s.get();
      return nullptr;
    });
  }
  BlockIo at(i64 offset) {
    BlockIo io;
    io.offset = Bytes(offset);
    io.queues.stacked = &routes;
    return io;
  }
};
}  // namespace

TEST_CASE("raid0 splits an I/O at chunk boundaries, sends each piece to its member, completes on the last",
          "[storage][raid0]") {
  Array a(4);
  bool done = false;
  // 1 MiB at 256 KiB: the rest of chunk 0 (256 KiB on d0 at 256 KiB), all of chunk 1 (d1 at
  // 0), the start of chunk 2 (256 KiB on d2 at 0); d3 is not touched.
  a.md->read(Bytes(MiB), a.given, a.mover, [&done] { done = true; }, a.at(256 * KiB));
  REQUIRE(a.stores[0]->calls.size() == 1);
  REQUIRE(a.stores[1]->calls.size() == 1);
  REQUIRE(a.stores[2]->calls.size() == 1);
  CHECK(a.stores[3]->calls.empty());
  CHECK(a.stores[0]->calls[0].size == 256 * KiB);
  CHECK(a.stores[0]->calls[0].offset == 256 * KiB);
  CHECK(a.stores[1]->calls[0].size == 512 * KiB);
  CHECK(a.stores[1]->calls[0].offset == 0);
  CHECK(a.stores[2]->calls[0].size == 256 * KiB);
  CHECK(a.stores[2]->calls[0].offset == 0);
  // Each piece moves along its member's own route, not the array's.
  CHECK(a.stores[1]->calls[0].route == &a.routes.routes[a.stores[1].get()]);
  CHECK(a.stores[1]->calls[0].route->devices.front() == "d1");
  CHECK(a.stores[1]->calls[0].route->devices.back() == "gpu0");
  a.stores[0]->complete();
  a.stores[2]->complete();
  CHECK_FALSE(done);
  a.stores[1]->complete();
  CHECK(done);

  // A 1 MiB write at 2 MiB + 512 KiB: chunks 5 and 6, d1 and d2 as their second chunks.
  done = false;
  a.md->write(Bytes(MiB), a.given, a.mover, [&done] { done = true; }, a.at(2 * MiB + 512 * KiB));
  CHECK(a.stores[1]->calls.back().write);
  CHECK(a.stores[1]->calls.back().offset == 512 * KiB);
  CHECK(a.stores[2]->calls.back().offset == 512 * KiB);
  CHECK(a.stores[0]->calls.size() == 1);
  CHECK(a.stores[3]->calls.empty());
  for (auto& s : a.stores) s->complete();
  CHECK(done);
}

TEST_CASE("a flush of the array reaches every member and completes when all have", "[storage][raid0]") {
  Array a(3);
  bool done = false;
  a.md->flush([&done] { done = true; }, SyncScope::file);
  for (const auto& s : a.stores) CHECK(s->flushes == 1);
  a.stores[0]->complete();
  a.stores[1]->complete();
  CHECK_FALSE(done);
  a.stores[2]->complete();
  CHECK(done);
}

TEST_CASE("bad RAID0 input names the file and the member or chunk", "[storage][raid0]") {
  using testing::topology_load_error;
  const auto with = [](const std::string& members, const std::string& chunk = "512 KiB") {
    Json t = topology(2, chunk);
    t["devices"][9]["members"] = members;
    return topology_load_error(t);
  };
  CHECK(with("nvme0") == "t.json: /devices/9/members: RAID0 stripes over at least 2 block storage devices; \"nvme0\" names 1");
  CHECK(with("nvme0,gpu0") == "t.json: /devices/9/members: gpu0 is a gpu, not block storage (such as an nvme_ssd)");
  CHECK(with("nvme0,nvme9") == "t.json: /devices/9/members: no device \"nvme9\" in the topology");
  CHECK(with("nvme0,nvme0") == "t.json: /devices/9/members: nvme0 is named twice");
  CHECK(with("nvme0,md0") == "t.json: /devices/9/members: md0 cannot be a member of itself");
  CHECK(with("nvme0,nvme1", "0 B") == "t.json: /devices/9/chunk: \"0 B\" must be more than 0 B");
  CHECK(with("nvme0,nvme1", "6 KiB") ==
        "t.json: /devices/9/chunk: 6 KiB is not a multiple of the members' logical block (4 KiB)");
}
