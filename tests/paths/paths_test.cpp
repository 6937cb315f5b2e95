// The data paths against the bounds their mechanisms imply.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;

namespace {
Json run(const Json& workload, const Json& paths, double dram_GBps = 0) {
  JsonDocument topo = load_json("topologies/workstation-gen5.json", IOWALL_SOURCE_DIR);
  if (dram_GBps > 0) topo.json["devices"][1]["bandwidth"] = fmt::format("{} GB/s", dram_GBps);
  const Json doc = {{"name", "p"}, {"topology", topo.json}, {"workload", workload}, {"paths", paths}};
  return to_json(run_scenario(scenario_from_json(doc, "p.json", IOWALL_SOURCE_DIR)));
}
const Json kRead = {{"size", "1 GiB"}, {"io_size", "1 MiB"}, {"threads", 8}, {"targets", "gpu0"}, {"storage", "nvme0,nvme1"}};
}  // namespace

// cpu_cached with readahead deep enough that the drives' latency hides (4 MiB windows of
// the drives' 128 KiB requests), so the copies decide.
const Json kCachedDeep = {{"name", "cpu_cached"}, {"read_ahead", "4 MiB"}};

TEST_CASE("bounce paths stay under host memory bandwidth over the times bytes cross it", "[paths][bound]") {
  // 60 GB/s of DRAM: cpu_cached crosses it six times per byte, cpu_gpu twice.
  const Json r = run(kRead, Json::array({kCachedDeep, "cpu_gpu", "gpu_direct"}), 60);
  const double cached = r["metrics"]["cpu_cached"]["throughput_GBps"];
  const double bounce = r["metrics"]["cpu_gpu"]["throughput_GBps"];
  const double direct = r["metrics"]["gpu_direct"]["throughput_GBps"];
  CHECK(cached <= 60.0 / 6 * 1.001);
  CHECK(cached > 0.9 * 60.0 / 6);  // and that is what limits it
  CHECK(r["metrics"]["cpu_cached"]["limited_by"]["resource"] == "dram0/access");
  CHECK(bounce <= 60.0 / 2 * 1.001);
  CHECK(direct <= 26.0);  // two PM1743 drives
  CHECK(direct > bounce - 1e-9);
}

TEST_CASE("cpu_cached into a pinned user buffer skips the driver's staging copy: four crossings per byte", "[paths][bound]") {
  const Json pinned = {{"name", "cpu_cached"}, {"user_buffer", "pinned"}, {"read_ahead", "4 MiB"}};
  const Json r = run(kRead, Json::array({pinned}), 60);
  const double cached = r["metrics"]["cpu_cached"]["throughput_GBps"];
  CHECK(cached <= 60.0 / 4 * 1.001);
  CHECK(cached > 0.9 * 60.0 / 4);
  CHECK(r["metrics"]["cpu_cached"]["limited_by"]["resource"] == "dram0/access");
  // Writes save the same copy. Below the background threshold nothing is written back
  // during the run: a write crosses host memory once by the copy engine and twice by the
  // copy into the page cache (three crossings: 20 GB/s), five with the driver's staging copy.
  Json w = kRead;
  w["kind"] = "sequential_write";
  w["size"] = "4 GiB";
  Json pinned_w = pinned;
  pinned_w["label"] = "pinned";
  pinned_w["dirty_bytes"] = "64 GiB";
  const Json pageable_w = {{"name", "cpu_cached"}, {"dirty_bytes", "64 GiB"}};
  const Json wr = run(w, Json::array({pinned_w, pageable_w}), 60);
  const double wp = wr["metrics"]["pinned"]["throughput_GBps"], wq = wr["metrics"]["cpu_cached"]["throughput_GBps"];
  CHECK(wp > wq);
  CHECK(wp <= 60.0 / 3 * 1.001);
  CHECK(wq <= 60.0 / 5 * 1.001);
  CHECK(wq > 0.9 * 60.0 / 5);
}

TEST_CASE("an unaligned I/O on gpu_direct takes the compat path and says so", "[paths]") {
  Json w = kRead;
  w["misalign"] = "512 B";
  const Json r = run(w, {"gpu_direct", "compat"});
  const auto& m = r["metrics"]["gpu_direct"];
  REQUIRE(m.contains("note"));
  CHECK(m["note"].get<std::string>().find("1024 I/Os were not 4 KiB aligned") != std::string::npos);
  CHECK(m["throughput_GBps"] == r["metrics"]["compat"]["throughput_GBps"]);
}

TEST_CASE("compat mode is bounded by its I/O threads and bounce buffers", "[paths][bound]") {
  // One thread, 1 MiB slabs: each chunk's read and copy run one after the other.
  const Json r = run({{"size", "256 MiB"}, {"io_size", "1 MiB"}, {"threads", 8}, {"targets", "gpu0"}, {"storage", "nvme0"}},
                     Json::array({Json{{"name", "compat"}, {"io_threads", 1}}, "gpu_direct"}));
  const double compat = r["metrics"]["compat"]["throughput_GBps"];
  const double direct = r["metrics"]["gpu_direct"]["throughput_GBps"];
  // A chunk takes at least the drive's 70 us latency plus 1 MiB at 13 GB/s.
  CHECK(compat < 1.0 / (70e-6 + 1.048576 / 13e3) / 1e3 * 1.048576 * 1.02);
  CHECK(compat < 0.75 * direct);
}

TEST_CASE("page cache: a cold read misses once per I/O", "[paths]") {
  Json w = {{"size", "64 MiB"}, {"io_size", "1 MiB"}, {"threads", 1}, {"targets", "gpu0"}, {"storage", "nvme0"}};
  const Json once = run(w, {"cpu_cached"});
  CHECK(once["metrics"]["cpu_cached"]["note"].get<std::string>().find("0 hits, 64 misses") != std::string::npos);
}

#include "models/host/page_cache.hpp"

TEST_CASE("buffered reads of a warm file copy on the calling thread: queue depth adds nothing, a second thread doubles it",
          "[paths]") {
  // 128 KiB per read: 1 us of system call, then the copy at one core's 12 GB/s, in the caller.
  auto gbps = [](int threads, int qd) {
    const Json w = {{"size", "256 MiB"}, {"io_size", "128 KiB"}, {"threads", threads}, {"qd", qd},
                    {"targets", "dram0"}, {"storage", "nvme0"}};
    const Json p = {{"name", "cpu_cached"}, {"cache_at_start", "warm"}, {"syscall_cost", "1 us"}};
    const Json m = run(w, Json::array({p}))["metrics"]["cpu_cached"];
    CHECK(m["note"].get<std::string>().find(" 0 misses") != std::string::npos);
    return m["throughput_GBps"].get<double>();
  };
  const double one = gbps(1, 1), deep = gbps(1, 8), two = gbps(2, 1);
  CHECK(one == Approx(131072 / (1e-6 + 131072 / 12e9) / 1e9).epsilon(0.03));
  CHECK(deep == Approx(one).epsilon(0.02));
  CHECK(two == Approx(2 * one).epsilon(0.03));
}

TEST_CASE("cpu_cached into a device that is neither a GPU nor host memory is bad input", "[paths]") {
  const Json w = {{"size", "16 MiB"}, {"io_size", "1 MiB"}, {"threads", 1}, {"targets", "nvme1"}, {"storage", "nvme0"}};
  CHECK_THROWS_WITH(run(w, {"cpu_cached"}), Catch::Contains("p.json: /workload/targets: nvme1 is a nvme_ssd, not a gpu"));
}

TEST_CASE("a warm page cache holds every block until it is evicted", "[paths]") {
  PageCache cache(Bytes(2 << 20), Bytes(1 << 20), true);  // two 1 MiB blocks, resident from the start
  int dev = 0;
  CHECK(cache.lookup(&dev, Bytes(0), Bytes(1 << 20)));
  CHECK(cache.lookup(&dev, Bytes(1 << 20), Bytes(1 << 20)));
  CHECK(cache.lookup(&dev, Bytes(2 << 20), Bytes(1 << 20)));  // block 0 is pushed out
  CHECK_FALSE(cache.lookup(&dev, Bytes(0), Bytes(1 << 20)));
  cache.insert(&dev, Bytes(0), Bytes(1 << 20));  // read back from storage
  CHECK(cache.lookup(&dev, Bytes(0), Bytes(1 << 20)));
  CHECK(cache.hits() == 4);
  CHECK(cache.misses() == 1);
}


TEST_CASE("the page cache keeps the most recent blocks within its capacity", "[paths]") {
  PageCache cache(Bytes(4 << 20), Bytes(1 << 20));  // four 1 MiB blocks
  int dev = 0;
  for (int i = 0; i < 4; ++i) cache.insert(&dev, Bytes(i << 20), Bytes(1 << 20));
  CHECK(cache.lookup(&dev, Bytes(0), Bytes(1 << 20)));          // block 0 is now most recent
  cache.insert(&dev, Bytes(4 << 20), Bytes(1 << 20));          // evicts block 1, the least recent
  CHECK_FALSE(cache.lookup(&dev, Bytes(1 << 20), Bytes(1 << 20)));
  CHECK(cache.lookup(&dev, Bytes(0), Bytes(2 << 20)) == false);  // spans the evicted block
  CHECK(cache.lookup(&dev, Bytes(2 << 20), Bytes(3 << 20)));     // blocks 2, 3, 4
  int other = 0;
  CHECK_FALSE(cache.lookup(&other, Bytes(0), Bytes(1 << 20)));  // another device's data
}

TEST_CASE("registering the buffer around every I/O adds cuFileBufRegister's cost to each", "[paths]") {
  // QD1, 64 KiB reads: per_io pays 50 us fixed + 1 GPU page x 10 ns, then 20 us to deregister.
  const Json w = {{"size", "64 MiB"}, {"io_size", "64 KiB"}, {"threads", 1}, {"targets", "gpu0"}, {"storage", "nvme0"}};
  const Json once = run(w, Json::array({Json{{"name", "gpu_direct"}}}));
  const Json per_io = run(w, Json::array({Json{{"name", "gpu_direct"}, {"registration", "per_io"}}}));
  const double added = per_io["metrics"]["gpu_direct"]["latency_mean_us"].get<double>() -
                       once["metrics"]["gpu_direct"]["latency_mean_us"].get<double>();
  CHECK(added == Approx(70.01).margin(2.0));
  auto cpu_s = [](const Json& m) { return m["cpu_cores_busy"].get<double>() * m["last_done_s"].get<double>(); };
  CHECK(cpu_s(per_io["metrics"]["gpu_direct"]) > 2 * cpu_s(once["metrics"]["gpu_direct"]));
}

TEST_CASE("an I/O above max_direct_io_size goes to nvidia-fs in pieces, a few at a time", "[paths]") {
  const Json w = {{"size", "256 MiB"}, {"io_size", "64 MiB"}, {"threads", 1}, {"targets", "gpu0"}, {"storage", "nvme0"}};
  auto run_with = [&w](const char* max, int parallel) {
    return run(w, Json::array({Json{{"name", "gpu_direct"}, {"max_direct_io_size", max}, {"max_request_parallelism", parallel}}}))
        ["metrics"]["gpu_direct"];
  };
  const Json whole = run_with("64 MiB", 1), serial = run_with("1 MiB", 1), parallel = run_with("1 MiB", 4);
  CHECK(whole.value("note", "").empty());
  CHECK(serial["note"].get<std::string>().find("4 I/Os were larger than max_direct_io_size (1 MiB)") !=
        std::string::npos);
  // One 1 MiB piece at a time leaves the drive mostly idle; four at a time recover most of it.
  CHECK(serial["throughput_GBps"].get<double>() < 0.7 * whole["throughput_GBps"].get<double>());
  CHECK(parallel["throughput_GBps"].get<double>() > 1.5 * serial["throughput_GBps"].get<double>());
  // Each piece after the first is one more nvidia-fs call: 63 more control costs per I/O.
  auto cpu_s = [](const Json& m) { return m["cpu_cores_busy"].get<double>() * m["last_done_s"].get<double>(); };
  CHECK(cpu_s(serial) > cpu_s(whole) + 4 * 63 * 8e-6 * 0.9);
}

TEST_CASE("write_page_cost: a buffered write pays it for each page it fills, reads never", "[paths][page_cost]") {
  // One thread, 1 MiB write()s into host memory, 1 us of system call and the copy at one
  // core's 12 GB/s: 0.5 us per 4 KiB page adds 256 x 0.5 = 128 us to each write,
  // 1 MiB / (1 us + 128 us + 87.4 us) against 1 MiB / (1 us + 87.4 us).
  auto gbps = [](const char* kind, const char* cost) {
    const Json w = {{"kind", kind}, {"size", "128 MiB"}, {"io_size", "1 MiB"}, {"threads", 1},
                    {"targets", "dram0"}, {"storage", "nvme0"}};
    const Json p = {{"name", "cpu_cached"}, {"syscall_cost", "1 us"}, {"write_page_cost", cost}};
    return run(w, Json::array({p}))["metrics"]["cpu_cached"]["throughput_GBps"].get<double>();
  };
  const double copy_s = 1048576 / 12e9;
  CHECK(gbps("sequential_write", "0 us") == Approx(1048576 / (1e-6 + copy_s) / 1e9).epsilon(0.03));
  CHECK(gbps("sequential_write", "0.5 us") == Approx(1048576 / (1e-6 + 128e-6 + copy_s) / 1e9).epsilon(0.03));
  // A read brings pages into the cache too, but the cost is measured for writes only.
  CHECK(gbps("sequential_read", "0.5 us") == gbps("sequential_read", "0 us"));
}
