// gpu_initiated (BaM-style): GPU threads drive the NVMe queues; no CPU, polled completions.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
Json run(const Json& paths, const char* target = "gpu0", int qd = 4) {
  const Json doc = {{"name", "g"},
                    {"topology", "topologies/workstation-gen5.json"},
                    {"workload",
                     {{"kind", "random_read"}, {"size", "128 MiB"}, {"io_size", "4 KiB"}, {"threads", 64}, {"qd", qd},
                      {"targets", target}, {"storage", "nvme0"}}},
                    {"paths", paths}};
  return to_json(run_scenario(scenario_from_json(doc, "g.json", IOWALL_SOURCE_DIR)));
}
}  // namespace

TEST_CASE("GPU-initiated 4 KiB reads reach the drive's IOPS with no CPU, where cuFile runs out of cores", "[paths][bam]") {
  // 64 threads x QD8: 512 GPU threads, 16 warps in lockstep.
  const Json r = run({"gpu_direct", "gpu_initiated"}, "gpu0", 8);
  const Json& bam = r["metrics"]["gpu_initiated"];
  const Json& gds = r["metrics"]["gpu_direct"];
  CHECK(bam["cpu_cores_busy"].get<double>() == 0.0);
  // PM1743: 2.5 M random-read IOPS.
  CHECK(bam["iops"].get<double>() == Approx(2.5e6).epsilon(0.03));
  CHECK(bam["limited_by"]["resource"] == "nvme0/controller");
  CHECK(gds["limited_by"]["resource"] == "cpu0/cores");
  CHECK(gds["iops"].get<double>() < 0.9 * bam["iops"].get<double>());
  // Completions are polled: the drive raised no interrupt; every command posted a CQ entry.
  const Json& st = r["stats"]["gpu_initiated"];
  CHECK(st["nvme0/nvme/interrupts"]["value"].get<double>() == 0);
  CHECK(st["nvme0/nvme/cq_entries"]["value"].get<double>() == bam["ios"].get<double>());
}

TEST_CASE("one global atomic CID counter serializes every command", "[paths][bam]") {
  const Json r = run(Json::array({Json{{"name", "gpu_initiated"}, {"cid_allocation", "global_atomic"},
                                       {"global_atomic_cost", "1 us"}}}));
  const Json& m = r["metrics"]["gpu_initiated"];
  CHECK(m["iops"].get<double>() == Approx(1e6).epsilon(0.02));  // one CID per microsecond
  CHECK(m["limited_by"]["resource"] == "gpu0/cid_counter");
}

TEST_CASE("gpu_initiated into host memory is refused", "[paths][bam]") {
  CHECK_THROWS_AS(run({"gpu_initiated"}, "dram0"), InputError);
}

TEST_CASE("CQ lookup: scanning for a CID is O(window), in-order completion is O(1) but waits", "[paths][bam]") {
  // Threads on their own: a warp in lockstep waits for its slowest command anyway.
  auto bam = [](const char* lookup, int queues) {
    return run(Json::array(
        {Json{{"name", "gpu_initiated"}, {"cq_lookup", lookup}, {"queues", queues}, {"warp_lockstep", false}}}));
  };
  auto reads_per_io = [](const Json& r) {
    return r["stats"]["gpu_initiated"]["nvme0/nvme/cq_entry_reads"]["value"].get<double>() /
           r["metrics"]["gpu_initiated"]["ios"].get<double>();
  };
  const Json all = bam("reap_all", 1), scan1 = bam("scan", 1), scan4 = bam("scan", 4), ordered = bam("in_order", 1);
  const Json& a = all["metrics"]["gpu_initiated"];
  // One CQ at 2.5 M IOPS posts an entry every 400 ns; reading one costs 500 ns, so the
  // window of unfound entries grows until the queue's 256 commands are all in it.
  CHECK(reads_per_io(scan1) > 50);
  CHECK(scan1["metrics"]["gpu_initiated"]["iops"].get<double>() < 0.9 * a["iops"].get<double>());
  // Over four CQs an entry comes every 1.6 us: the window stays about one entry long.
  CHECK(reads_per_io(scan4) < 3);
  CHECK(scan4["metrics"]["gpu_initiated"]["iops"].get<double>() == Approx(a["iops"].get<double>()).epsilon(0.01));
  // In submission order nothing is scanned, but a command whose read finished early
  // waits for slower ones ahead of it: the tail grows.
  CHECK(reads_per_io(ordered) == 0);
  CHECK(ordered["metrics"]["gpu_initiated"]["latency_p99_us"].get<double>() > 1.1 * a["latency_p99_us"].get<double>());
}

TEST_CASE("a warp in lockstep rings one doorbell for its 32 commands, threads on their own ring about one each",
          "[paths][bam]") {
  auto bam = [](bool lockstep, int batch) {
    return run(Json::array(
        {Json{{"name", "gpu_initiated"}, {"warp_lockstep", lockstep}, {"warp_batch", batch}, {"queues", 8}}}));
  };
  auto fetches_per_command = [](const Json& r) {
    return r["stats"]["gpu_initiated"]["nvme0/nvme/sq_fetches"]["value"].get<double>() /
           r["metrics"]["gpu_initiated"]["ios"].get<double>();
  };
  const Json warp = bam(true, 32), own = bam(false, 32), unbatched = bam(true, 1);
  // 64 threads x QD4 = 256 GPU threads = 8 warps, one per queue pair.
  CHECK(fetches_per_command(warp) == Approx(1.0 / 32));
  CHECK(fetches_per_command(own) > 0.9);       // closed-loop threads drift apart
  CHECK(fetches_per_command(unbatched) == 1.0);  // warp_batch 1: a doorbell per command
  // The drive stays the limit either way. Eight warps that each wait for their slowest
  // command leave it a little less work queued (16 warps: within 3%, see above).
  for (const Json* r : {&warp, &own}) {
    CHECK((*r)["metrics"]["gpu_initiated"]["iops"].get<double>() > 0.9 * 2.5e6);
    CHECK((*r)["metrics"]["gpu_initiated"]["limited_by"]["resource"] == "nvme0/controller");
  }
  // Every I/O of a warp completes before any of its threads goes on: I/Os issued
  // together end together, so the mean latency is above the independent threads'.
  CHECK(warp["metrics"]["gpu_initiated"]["latency_mean_us"].get<double>() >
        own["metrics"]["gpu_initiated"]["latency_mean_us"].get<double>());
}
