// Host I/O stacks: per-I/O CPU cost and interrupt or polled completion.
#include <catch2/catch.hpp>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
// DGX-H100 with one core per socket and eight Micron 9550 (26 M IOPS in all): the cores limit.
Json run_stack(const char* stack) {
  JsonDocument topo = load_json("topologies/dgx-h100.json", IOWALL_SOURCE_DIR);
  for (Json& d : topo.json["devices"]) {
    if (d["model"] == "cpu_socket") d["cores"] = 1;
    if (d["model"] == "nvme_ssd") d["preset"] = "micron_9550";
  }
  const Json doc = {{"name", "io"},
                    {"topology", topo.json},
                    {"workload",
                     {{"kind", "random_read"}, {"size", "512 MiB"}, {"io_size", "4 KiB"}, {"threads", 64}, {"qd", 32},
                      {"targets", "dram0,dram1"}, {"storage", "all"}}},
                    {"paths", Json::array({Json{{"name", "cpu_only"}, {"io_stack", stack}}})}};
  return to_json(run_scenario(scenario_from_json(doc, "io.json", IOWALL_SOURCE_DIR)));
}

// scenarios/nvme-preset-qd.json with an Optane P5800X read by io_uring from `threads`
// threads at depth `qd`: the cpu_only path's metrics.
Json p5800x_io_uring(int threads, int qd, const char* size, int batch_complete = 1) {
  Json doc = load_json("scenarios/nvme-preset-qd.json", IOWALL_SOURCE_DIR).json;
  doc.erase("sweep");
  doc["topology"]["devices"][3]["preset"] = "optane_p5800x";
  doc["workload"]["threads"] = threads;
  doc["workload"]["qd"] = qd;
  doc["workload"]["batch_complete"] = batch_complete;
  doc["workload"]["size"] = size;
  doc["paths"] = Json::array({Json{{"name", "cpu_only"}, {"io_stack", "io_uring"}}});
  return to_json(run_scenario(scenario_from_json(doc, "q.json", IOWALL_SOURCE_DIR)))["metrics"]["cpu_only"];
}

}  // namespace

TEST_CASE("polled io_uring and SPDK reach about 10 M IOPS per core, psync a fortieth of that", "[paths][iostack]") {
  const Json poll = run_stack("io_uring_poll"), spdk = run_stack("spdk"), psync = run_stack("psync");
  const Json aio = run_stack("libaio");
  const Json& p = poll["metrics"]["cpu_only"];
  // figures.md: 10 M IOPS per core (Axboe, io_uring polled); SPDK 10.39 M per thread.
  CHECK(p["iops_per_cpu_core"].get<double>() == Approx(10e6).epsilon(0.01));
  CHECK(spdk["metrics"]["cpu_only"]["iops_per_cpu_core"].get<double>() == Approx(10.42e6).epsilon(0.01));
  // 4 us of CPU per psync I/O: 250 k IOPS per core, both cores saturated.
  CHECK(psync["metrics"]["cpu_only"]["iops_per_cpu_core"].get<double>() == Approx(250e3).epsilon(0.01));
  CHECK(psync["metrics"]["cpu_only"]["iops"].get<double>() == Approx(500e3).epsilon(0.01));
  // libaio: 0.82 + 0.82 us a 4 KiB read, 1 / 1.64 us = 609.8 k IOPS per core (Axboe's 608 K per core at QD 128,
  // the figure the default comes from), two cores saturated: 1.22 M.
  CHECK(aio["metrics"]["cpu_only"]["iops_per_cpu_core"].get<double>() == Approx(609.8e3).epsilon(0.01));
  CHECK(aio["metrics"]["cpu_only"]["iops"].get<double>() == Approx(1219.5e3).epsilon(0.01));
  // Polled stacks take no interrupts; psync one per command.
  CHECK(poll["stats"]["cpu_only"]["nvme0/nvme/interrupts"]["value"].get<double>() == 0);
  CHECK(psync["stats"]["cpu_only"]["nvme0/nvme/interrupts"]["value"].get<double>() > 0);
}

TEST_CASE("one thread runs on one core at a time: its I/Os' CPU steps queue even with idle cores", "[paths][iostack]") {
  // An Optane P5800X (4.6 M commands/s, a 7.2 GB/s data path: 1.76 M 4 KiB reads/s) and 56
  // cores; io_uring's 0.5 us submit + 0.5 us complete.
  auto run = [](int threads, int qd) { return p5800x_io_uring(threads, qd, "64 MiB"); };
  const Json one = run(1, 64), many = run(64, 1);
  // 1 us of CPU per I/O on one thread: at most 1 M IOPS however deep its queue.
  CHECK(one["iops"].get<double>() <= 1.0e6 * 1.001);
  CHECK(one["iops"].get<double>() > 0.9e6);
  // The same depth spread over 64 threads reaches the drive's ceiling: 7.2 GB/s / 4 KiB.
  CHECK(many["iops"].get<double>() == Approx(7.2e9 / 4096).epsilon(0.02));
  CHECK(many["limited_by"]["resource"] == "nvme0/media_read");
}

TEST_CASE("a closed loop whose resources are idle most of the time is limited by its I/O window", "[paths][iostack][limited]") {
  // An Optane P5800X at QD 1 from one io_uring thread: each 4 KiB read takes the drive's
  // ~5 us plus 1 us of CPU, so the thread's core is busy about 1/6 of the time and the
  // drive (4.6 M commands/s, 1.76 M reads/s of data path) under a tenth: neither bounds
  // the rate, the single I/O in flight does (Little's law: IOPS x latency = 1 slot).
  auto run = [](int threads, int qd) { return p5800x_io_uring(threads, qd, "16 MiB"); };
  const Json qd1 = run(1, 1), deep = run(64, 1);
  CHECK(qd1["limited_by"]["resource"] == "io window (1 thread x QD 1)");
  CHECK(qd1["limited_by"]["utilization"].get<double>() > 0.95);
  // 64 threads at QD 1 saturate the drive's data path: a device, not the window.
  CHECK(deep["limited_by"]["resource"] == "nvme0/media_read");
}

TEST_CASE("a thread that reaps in batches waits for its batch: a round is the device's latency and the batch's CPU",
          "[paths][iostack][batch]") {
  // io_uring's s = 0.5 us submit + c = 0.5 us complete on one thread. At QD1 an I/O takes
  // L1 = s + D + c (D: the device's latency). With QD n reaped n at a time, a round is the
  // n submissions one after another, then the last one's D and completion: at least
  // n s + D + c = n s + L1 - s, at most that plus the other n - 1 completions if they all
  // wait behind the last. Resubmitting each I/O as it completes keeps n in flight and is
  // faster (n / (L1) while the CPU keeps up: 4 us of CPU per 4 I/Os here).
  const double s = 0.5e-6, c = 0.5e-6, n = 4;
  const double l1 = p5800x_io_uring(1, 1, "16 MiB")["latency_mean_us"].get<double>() * 1e-6;
  const Json batched = p5800x_io_uring(1, 4, "64 MiB", 4), each = p5800x_io_uring(1, 4, "64 MiB", 1);
  const double most = n / (n * s + l1 - s), least = n / (n * s + l1 - s + (n - 1) * c);
  INFO("L1 " << l1 * 1e6 << " us; batched " << batched["iops"] << " IOPS in [" << least << ", " << most << "], each "
             << each["iops"]);
  CHECK(batched["iops"].get<double>() <= most * 1.001);
  CHECK(batched["iops"].get<double>() >= least * 0.999);
  CHECK(each["iops"].get<double>() > 1.1 * batched["iops"].get<double>());
}

TEST_CASE("batch_complete above the queue depth, or with a depth per device, is refused", "[paths][iostack][batch]") {
  Json doc = load_json("scenarios/nvme-preset-qd.json", IOWALL_SOURCE_DIR).json;
  doc.erase("sweep");
  doc["workload"]["qd"] = 4;
  doc["workload"]["batch_complete"] = 8;
  CHECK_THROWS_WITH(run_scenario(scenario_from_json(doc, "q.json", IOWALL_SOURCE_DIR)),
                    Catch::Contains("/workload/batch_complete") && Catch::Contains("8 completions"));
  doc["workload"]["batch_complete"] = 2;
  doc["workload"]["qd_per"] = "device";
  CHECK_THROWS_WITH(run_scenario(scenario_from_json(doc, "q.json", IOWALL_SOURCE_DIR)),
                    Catch::Contains("/workload/batch_complete") && Catch::Contains("qd_per"));
}
