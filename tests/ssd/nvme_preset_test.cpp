// nvme_ssd presets against their spec sheets and the Optane P4800X review (figures.md),
// run end to end (host stack, doorbells, SQ fetch, media, DMA, completion) through
// scenarios/nvme-preset-qd.json. Misses are recorded in reports/nvme-presets.md.
// The scenario's host stack is psync: one I/O in flight per thread, so a queue depth of
// N is N threads (fio's numjobs), each of which runs on one core at a time.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
Json run_all(const std::string& preset, int threads, int qd, Json drive_overrides = Json::object()) {
  Json doc = load_json("scenarios/nvme-preset-qd.json", IOWALL_SOURCE_DIR).json;
  doc.erase("sweep");
  Json& drive = doc["topology"]["devices"][3];
  drive["preset"] = preset;
  drive.update(drive_overrides);
  doc["workload"]["threads"] = threads;
  doc["workload"]["qd"] = qd;
  doc["workload"]["size"] = qd * threads >= 64 ? "256 MiB" : "32 MiB";
  return to_json(run_scenario(scenario_from_json(doc, "nvme-preset-qd.json", IOWALL_SOURCE_DIR)));
}
Json run(const std::string& preset, int threads, int qd, Json drive_overrides = Json::object()) {
  return run_all(preset, threads, qd, std::move(drive_overrides))["metrics"]["cpu_only"];
}
double in_flight(const Json& m) { return m["iops"].get<double>() * m["latency_mean_us"].get<double>() / 1e6; }
}  // namespace

TEST_CASE("deep queues reach each flash preset's IOPS ceiling and not more", "[nvme][preset]") {
  // The data sheets' figures, except the 980 Pro's: what hosts measure (0.78 M, the preset's
  // source), not its data sheet's "up to 1M".
  const std::vector<std::pair<std::string, double>> spec = {
      {"pm1743", 2.5e6}, {"micron_9550", 3.3e6}, {"cm7r", 2.45e6}, {"samsung_980pro", 0.78e6}};
  for (const auto& [preset, iops] : spec) {
    const Json m = run(preset, 512, 1);
    INFO(preset);
    CHECK(m["iops"].get<double>() <= iops * 1.001);
    CHECK(m["iops"].get<double>() >= iops * 0.97);
  }
}

TEST_CASE("NAND at QD1 is bound by the page read, QD16 scales it sixteenfold", "[nvme][preset]") {
  const Json qd1 = run("micron_9550", 1, 1), qd16 = run("micron_9550", 16, 1);
  // 50 us tR, 1.7 us on the channel, 4 us of CPU: the NVMe exchange adds only a few us.
  CHECK(qd1["latency_p50_us"].get<double>() > 55.7);
  CHECK(qd1["latency_p50_us"].get<double>() < 62.0);
  // Figures.md: typical read latency 60 us (spec).
  CHECK(qd1["latency_mean_us"].get<double>() == Approx(60.0).epsilon(0.05));
  // 16 I/Os spread over 64 dies rarely collide: latency barely grows, IOPS x16.
  CHECK(qd16["iops"].get<double>() == Approx(16 * qd1["iops"].get<double>()).epsilon(0.03));
  // Read retries and the tR spread make a tail: p99.9 well above the median.
  CHECK(qd16["latency_p999_us"].get<double>() > 1.2 * qd16["latency_p50_us"].get<double>());
}

TEST_CASE("Optane P4800X at QD16 lands near the review's 584.8k IOPS", "[nvme][preset]") {
  const Json m = run("optane_p4800x", 16, 1);
  // The controller ceiling is the spec's 550k; the review measured 6% more.
  CHECK(m["iops"].get<double>() == Approx(584.8e3).epsilon(0.07));
  CHECK(in_flight(m) == Approx(16.0).epsilon(0.03));
}

TEST_CASE("Optane at QD1: a tight distribution, P5800X faster than P4800X", "[nvme][preset]") {
  const Json p48 = run("optane_p4800x", 1, 1), p58 = run("optane_p5800x", 1, 1);
  // Review: p99 10 us over a mean of 8.9 us (1.12x); no read retries in 3D XPoint.
  CHECK(p48["latency_p99_us"].get<double>() < 1.12 * p48["latency_mean_us"].get<double>());
  CHECK(p58["latency_mean_us"].get<double>() < p48["latency_mean_us"].get<double>());
  // Known miss (reports/nvme-presets.md): the model's mean sits above the review's 8.9 us
  // because cpu_only charges a fixed 4 us of host software per I/O.
  CHECK(p48["latency_mean_us"].get<double>() > 8.9);
}

TEST_CASE("queue traffic: one SQ fetch per doorbell, a batch shares one", "[nvme]") {
  // One queue pair, 32 threads: I/Os whose submissions coincide share a doorbell when
  // batched (they start together, and the drive completes its first ones together).
  auto fetches = [](const Json& r) { return r["stats"]["cpu_only"]["nvme0/nvme/sq_fetches"]["value"].get<double>(); };
  const Json one = run_all("micron_9550", 32, 1, {{"driver", {{"io_queues", 1}}}});
  const Json batch = run_all("micron_9550", 32, 1, {{"driver", {{"io_queues", 1}, {"doorbell_batch", 32}}}});
  const double commands = one["metrics"]["cpu_only"]["ios"].get<double>();
  CHECK(fetches(one) == commands);
  CHECK(fetches(batch) < 0.9 * commands);
}

TEST_CASE("too few CIDs block the submitter and cap the I/Os in flight", "[nvme]") {
  // 4 CID bits: 16 commands per queue pair, one queue, 64 I/Os offered.
  const Json m = run("micron_9550", 1, 16, {{"driver", {{"cid_bits", 4}, {"io_queues", 1}}}});
  CHECK(in_flight(m) == Approx(16.0).epsilon(0.03));
}

TEST_CASE("polling sees completions sooner than MSI-X", "[nvme]") {
  const Json irq = run("optane_p5800x", 1, 1), poll = run("optane_p5800x", 1, 1, {{"driver", "polled"}});
  const double saved = irq["latency_mean_us"].get<double>() - poll["latency_mean_us"].get<double>();
  // 1 us interrupt delivery and the 4 B MSI-X write against a 100 ns poll.
  CHECK(saved > 0.9);
  CHECK(saved < 1.5);
}

TEST_CASE("queues sharing an MSI-X vector: the handler scans every CQ on it and reaps them all", "[nvme]") {
  // 32 queues: one vector each, or all on one vector (32 CQs to scan, 31 beyond its own).
  const Json own = run("optane_p5800x", 1, 1, {{"driver", {{"io_queues", 32}}}});
  const Json shared =
      run("optane_p5800x", 1, 1, {{"driver", {{"io_queues", 32}, {"msix_vectors", 1}, {"cq_scan_cost", "100 ns"}}}});
  const double added = shared["latency_mean_us"].get<double>() - own["latency_mean_us"].get<double>();
  CHECK(added == Approx(3.1).margin(0.2));
  // Two vectors: 16 CQs each, 15 beyond the handler's own.
  const Json two =
      run("optane_p5800x", 1, 1, {{"driver", {{"io_queues", 32}, {"msix_vectors", 2}, {"cq_scan_cost", "100 ns"}}}});
  CHECK(two["latency_mean_us"].get<double>() - own["latency_mean_us"].get<double>() == Approx(1.5).margin(0.2));
}

TEST_CASE("more MSI-X vectors than the PCIe table holds is bad input", "[nvme]") {
  CHECK_THROWS_WITH(run("pm1743", 1, 1, {{"driver", {{"msix_vectors", 4096}}}}), Catch::Contains("msix_vectors"));
}
