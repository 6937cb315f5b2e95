// NVMe submission-queue arbitration at the controller: the urgent priority class.
#include <catch2/catch.hpp>

#include "models/ssd/nvme_ssd.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/topology.hpp"

using namespace iowall;

namespace {
// Mean latency (us) of 4 KiB reads on queue 0 and on the other queues, when 64 reads per
// queue on 4 queues arrive at once at a controller of 100 k IOPS (the bottleneck).
std::pair<double, double> latencies(const std::string& arbitration, int urgent) {
  JsonDocument doc = load_json("topologies/workstation-gen5.json", IOWALL_SOURCE_DIR);
  for (Json& d : doc.json["devices"])
    if (d["id"] == "nvme0") {
      d["max_iops"] = "100 k/s";
      d["arbitration"] = arbitration;
      d["driver"] = {{"io_queues", 4}};
      d["urgent_queues"] = urgent;
    }
  SimContext ctx(1);
  Topology t(ctx, doc.json, "t.json");
  auto& ssd = static_cast<NvmeSsd&>(*t.find("nvme0"));
  const Route& to = t.route(ssd, *t.find("gpu0"));
  RouteMover mover(ctx);
  double sum[2] = {0, 0};
  int count[2] = {0, 0};
  struct Done {
    double* sum;
    int* count;
    SimContext* ctx;
  };
  std::vector<Done> records;
  records.reserve(256);
  for (int q = 0; q < 4; ++q)
    for (int i = 0; i < 64; ++i) {
      const int k = q == 0 ? 0 : 1;
      records.push_back({&sum[k], &count[k], &ctx});
      Done* d = &records.back();
      ssd.read(Bytes(4096), to, mover, [d] {
        *d->sum += d->ctx->now().us();
        ++*d->count;
      }, NvmeIo{Bytes(-1), q, {}});
    }
  ctx.run();
  return {sum[0] / count[0], sum[1] / count[1]};
}
}  // namespace

TEST_CASE("an urgent queue is served before the weighted round-robin classes", "[nvme][arbitration]") {
  const auto [rr_urgent, rr_other] = latencies("rr", 0);
  const auto [wrr_urgent, wrr_other] = latencies("wrr", 1);
  // Round-robin: queue 0 gets a quarter of the 10 us slots, like the others.
  CHECK(rr_urgent == Approx(rr_other).epsilon(0.05));
  // Urgent: its 64 commands take the first 64 slots (mean 325 us of controller time),
  // plus the media read and the DMA (under 100 us); the others wait for them.
  CHECK(wrr_urgent > 325);
  CHECK(wrr_urgent < 425);
  CHECK(wrr_other > 2.5 * wrr_urgent);
}

TEST_CASE("the urgent class needs weighted round-robin", "[nvme][arbitration]") {
  JsonDocument doc = load_json("topologies/workstation-gen5.json", IOWALL_SOURCE_DIR);
  for (Json& d : doc.json["devices"])
    if (d["id"] == "nvme0") d["urgent_queues"] = 1;
  SimContext ctx(1);
  CHECK_THROWS_WITH(Topology(ctx, doc.json, "t.json"), Catch::Contains("urgent_queues") && Catch::Contains("wrr"));
}
