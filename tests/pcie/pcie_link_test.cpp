// The PCIe link: spec arithmetic, the TLP-level simulation, and the chunk model
// held to each other and to published figures.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "models/pcie/pcie_spec.hpp"
#include "models/pcie/tlp_link_sim.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/config/topology.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;
using namespace iowall::pcie;

TEST_CASE("Gen3 x8 MPS 256 leaves 57.88 Gb/s at the TLP layer (pcie-bench)", "[pcie]") {
  LinkConfig c{3, 8, 256, 512};
  CHECK(encoded_bandwidth(c).Gbps_value() == Approx(63.015).epsilon(1e-4));
  CHECK(tlp_layer_bandwidth_duplex(c).Gbps_value() == Approx(57.88).epsilon(2e-4));
}

TEST_CASE("TLP framing and splitting follow the spec", "[pcie]") {
  LinkConfig c{5, 16, 256, 512};
  CHECK(mwr_overhead(c) == 24);
  CHECK(cpld_overhead(c) == 20);
  const StreamCost w = stream_cost(c, Op::write, 4096);
  CHECK(w.tlps == 16);  // MPS splitting
  CHECK(w.requests == 0);
  const StreamCost r = stream_cost(c, Op::read, 4096);
  CHECK(r.requests == 8);  // MRRS splitting
  CHECK(r.tlps == 16);     // completions of MPS bytes
  c.rcb_split = true;
  CHECK(stream_cost(c, Op::read, 4096).tlps == 64);  // split at the 64 B RCB
  c.ecrc = true;
  CHECK(mwr_overhead(c) == 28);
  LinkConfig g6{6, 16, 256, 512};
  CHECK(mwr_overhead(g6) == 16);  // FLIT mode: no per-TLP framing, sequence or LCRC
  CHECK(check(LinkConfig{5, 3, 256, 512}).find("x3 is not a PCIe link width") == 0);
  CHECK(!check(LinkConfig{5, 16, 384, 512}).empty());
}

TEST_CASE("the TLP-level simulation agrees with the protocol arithmetic within 1%", "[pcie][tlp]") {
  for (int gen : {1, 2, 3, 4, 5, 6})
    for (int lanes : {1, 4, 16})
      for (i64 mps : {128, 256, 512})
        for (Op op : {Op::write, Op::read})
          for (i64 size : {256, 4096, 65536}) {
            LinkConfig c{gen, lanes, mps, 512};
            TlpSimConfig sc;
            sc.link = c;
            sc.op = op;
            sc.transfer_size = size;
            sc.transfers = std::max<i64>(4, (1 << 20) / size);
            const double sim = simulate_stream(sc).effective.Gbps_value();
            const double model = effective_bandwidth(c, op, size).Gbps_value();
            INFO("gen " << gen << " x" << lanes << " mps " << mps << (op == Op::read ? " read " : " write ") << size);
            CHECK(sim == Approx(model).epsilon(0.01));
            CHECK(sim <= encoded_bandwidth(c).Gbps_value());
          }
}

TEST_CASE("finite credits and read tags bound a stream by round trips", "[pcie][tlp]") {
  LinkConfig c{5, 16, 256, 512};
  TlpSimConfig sc;
  sc.link = c;
  sc.transfer_size = 65536;
  sc.transfers = 64;
  sc.latency = ns(500);
  // A receive buffer of 1 KiB (64 data credits): at most 1 KiB per credit round trip.
  sc.posted_data_credits = 64;
  sc.posted_header_credits = 4;
  const TlpSimResult small = simulate_stream(sc);
  CHECK(small.credit_stalls > 0);
  const double rtt_s = 2 * 500e-9;
  CHECK(small.effective.GBps_value() <= 1024 / rtt_s / 1e9 * 1.05);
  CHECK(small.effective.GBps_value() < 0.1 * effective_bandwidth(c, Op::write, 65536).GBps_value());

  // One read tag and 1 us of memory latency: one MRRS per round trip.
  TlpSimConfig rd;
  rd.link = c;
  rd.op = Op::read;
  rd.transfer_size = 65536;
  rd.transfers = 8;
  rd.tags = 1;
  rd.completer_latency = us(1);
  const double gbps = simulate_stream(rd).effective.GBps_value();
  CHECK(gbps == Approx(512 / 1.05e-6 / 1e9).epsilon(0.05));
}

TEST_CASE("chunk fidelity stays within 2% of TLP fidelity for transfers of 64 KiB and more", "[pcie][fidelity]") {
  for (int gen : {3, 5, 6})
    for (Op op : {Op::write, Op::read})
      for (i64 size : {65536, 1 << 20}) {
        LinkConfig c{gen, 16, 256, 512};
        // Chunk model: one link of a topology, DMA chunks over its channel.
        const Json topo = Json::parse(fmt::format(R"({{"name": "t", "devices": [
            {{"id": "cpu", "model": "cpu_socket"}}, {{"id": "mem", "model": "dram"}},
            {{"id": "rc", "model": "root_complex", "root_ports": 1}}, {{"id": "g", "model": "gpu"}}],
          "links": [{{"a": "cpu.fabric", "b": "rc.cpu", "fabric": {{"bandwidth": "100 GB/s"}}}},
                    {{"a": "rc.mem", "b": "mem.mc", "fabric": {{"bandwidth": "300 GB/s"}}}},
                    {{"a": "rc.rp0", "b": "g.up", "pcie": {{"gen": {}, "lanes": 16}}}}]}})", gen));
        SimContext ctx(1);
        Topology t(ctx, topo, "t.json");
        RouteMover mover(ctx);
        const Route& route = t.route(*t.find("rc"), *t.find("g"));
        const int chunks = static_cast<int>(std::max<i64>(16, (16 << 20) / size));
        for (int i = 0; i < chunks; ++i)
          mover.send(route, Bytes(size), [] {}, op == Op::read ? DmaKind::read : DmaKind::write);
        ctx.run();
        const double chunk_gbps = static_cast<double>(size) * chunks * 8 / ctx.now().seconds() / 1e9;
        TlpSimConfig sc;
        sc.link = c;
        sc.op = op;
        sc.transfer_size = size;
        sc.transfers = chunks;
        const double tlp_gbps = simulate_stream(sc).effective.Gbps_value();
        INFO("gen " << gen << (op == Op::read ? " read " : " write ") << size);
        CHECK(chunk_gbps == Approx(tlp_gbps).epsilon(0.02));
        CHECK(chunk_gbps <= encoded_bandwidth(c).Gbps_value());
      }
}

TEST_CASE("the IOMMU bounds DMA by page walks unless pages are large", "[pcie][iommu]") {
  auto copy_gbps = [](bool iommu, const char* page) {
    JsonDocument doc = load_json("topologies/workstation-gen5.json", IOWALL_SOURCE_DIR);
    doc.json["devices"][2]["iommu"] = iommu;
    doc.json["devices"][2]["iommu_page_size"] = page;
    SimContext ctx(1);
    Topology t(ctx, doc.json, "t.json");
    RouteMover mover(ctx);
    const Route& r = t.route(*t.find("dram0"), *t.find("gpu0"));
    for (int i = 0; i < 16; ++i) mover.send(r, Bytes(16 << 20), [] {}, DmaKind::read);
    ctx.run();
    return gb_per_s(Bytes(16LL << 24), ctx.now());
  };
  const double off = copy_gbps(false, "4 KiB");
  const double small = copy_gbps(true, "4 KiB");
  const double huge = copy_gbps(true, "2 MiB");
  // 4 walkers x 4 KiB / 400 ns = 40.96 GB/s: below the Gen5 x16 link.
  CHECK(small == Approx(40.96).epsilon(0.01));
  CHECK(huge == Approx(off).epsilon(0.01));
  CHECK(off > 55.0);
}

TEST_CASE("scenario runs at tlp fidelity stay within 2% of chunk fidelity", "[pcie][fidelity]") {
  for (const char* io : {"64 KiB", "1 MiB"}) {
    auto run = [io](const char* fidelity) {
      const Json doc = {{"name", "f"},
                        {"topology", "topologies/workstation-gen5.json"},
                        {"fidelity", fidelity},
                        {"workload",
                         {{"size", "64 MiB"}, {"io_size", io}, {"threads", 4}, {"targets", "gpu0"}, {"storage", "nvme0,nvme1"}}},
                        {"paths", {"gpu_direct", "cpu_gpu"}}};
      return to_json(run_scenario(scenario_from_json(doc, "f.json", IOWALL_SOURCE_DIR)));
    };
    const Json chunk = run("chunk"), tlp = run("tlp");
    for (const char* p : {"gpu_direct", "cpu_gpu"}) {
      INFO(io << " " << p);
      CHECK(tlp["metrics"][p]["throughput_GBps"].get<double>() ==
            Approx(chunk["metrics"][p]["throughput_GBps"].get<double>()).epsilon(0.02));
      // Every TLP is an event of its own: many more events than chunks.
      CHECK(tlp["metrics"][p]["events"].get<double>() > 10 * chunk["metrics"][p]["events"].get<double>());
    }
  }
}

TEST_CASE("at tlp fidelity a hop holds no more TLPs than its credits, and work still drains", "[pcie][fidelity]") {
  JsonDocument topo = load_json("topologies/workstation-gen5.json", IOWALL_SOURCE_DIR);
  for (auto& l : topo.json["links"])
    if (l.contains("pcie")) l["pcie"]["credits"] = 2;
  const Json doc = {{"name", "credits"},
                    {"topology", topo.json},
                    {"fidelity", "tlp"},
                    {"workload",
                     {{"size", "16 MiB"}, {"io_size", "256 KiB"}, {"threads", 8}, {"targets", "gpu0"}, {"storage", "nvme0,nvme1"}}},
                    {"paths", {"gpu_direct"}}};
  const Json r = to_json(run_scenario(scenario_from_json(doc, "c.json", IOWALL_SOURCE_DIR)));
  const auto& m = r["metrics"]["gpu_direct"];
  CHECK(m["bytes"].get<i64>() == 16 << 20);
  // Queues at each link are bounded to 2 TLPs: the recorded maximum says so.
  const auto& queue = r["stats"]["gpu_direct"].at("sw0.dn0--gpu0.up/a>b/queue");
  CHECK(queue["max"].get<i64>() <= 2);
  CHECK(queue["max"].get<i64>() >= 1);
  CHECK(m["throughput_GBps"].get<double>() <= 26.0);
}

TEST_CASE("a store-and-forward switch adds a packet's serialization per chunk", "[pcie]") {
  auto one_chunk = [](const char* forwarding) {
    JsonDocument doc = load_json("topologies/workstation-gen5.json", IOWALL_SOURCE_DIR);
    doc.json["devices"][3]["forwarding"] = forwarding;
    SimContext ctx(1);
    Topology t(ctx, doc.json, "t.json");
    RouteMover mover(ctx);
    Time arrived;
    mover.send(t.route(*t.find("nvme0"), *t.find("gpu0")), Bytes(128 * 1024), [&arrived, &ctx] { arrived = ctx.now(); });
    ctx.run();
    return arrived;
  };
  const Time ct = one_chunk("cut_through"), sf = one_chunk("store_and_forward");
  // The x16 hop after the switch: 128 KiB of MWr TLPs at Gen5 x16 rate.
  LinkConfig x16{5, 16, 256, 512};
  const Time x16_ser = transfer_time(Bytes(stream_cost(x16, Op::write, 128 * 1024).data_dir_bytes), encoded_bandwidth(x16));
  CHECK((sf - ct).ps == Approx(x16_ser.ps).epsilon(0.01));
}

TEST_CASE("a DMA engine that starts a transfer every interval caps small transfers at size / interval", "[pcie][tlp]") {
  // Gen3 x8, MPS 256: a 64 B write is 64 + 26 B on the wire, 90 B at 7.88 GB/s = 11.4 ns, so
  // the link alone takes 5.6 GB/s of them; an engine starting one every 21 ns allows
  // 64 B / 21 ns = 3.05 GB/s. At 1 KiB the link (7.2 GB/s) binds before the engine (48.8 GB/s).
  LinkConfig c{3, 8, 256, 512};
  for (const Op op : {Op::write, Op::read}) {
    for (const i64 size : {i64{64}, i64{1024}}) {
      TlpSimConfig sc;
      sc.link = c;
      sc.op = op;
      sc.transfer_size = size;
      sc.transfers = 65536;
      const double link = simulate_stream(sc).effective.GBps_value();
      sc.engine_interval = ns(21);
      const double paced = simulate_stream(sc).effective.GBps_value();
      const double engine = static_cast<double>(size) / 21.0;  // GB/s
      INFO((op == Op::write ? "write " : "read ") << size << " B: link " << link << ", paced " << paced);
      CHECK(paced == Approx(std::min(link, engine)).epsilon(0.02));
      if (size == 64) CHECK(paced < 0.6 * link);
      else CHECK(paced == Approx(link).epsilon(0.01));
    }
  }
}
