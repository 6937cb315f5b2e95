// Short real measurements on a temporary file. No timed assertions: the machine is
// shared; only what must hold whatever the speed (bytes moved, counts, consistency).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "measure/measurement_json.hpp"
#include "measure/page_residency.hpp"
#include "measure/report.hpp"
#include "measure/runner.hpp"
#include "measure_test_util.hpp"
#include "sim/core/error.hpp"

using namespace iowall;
using namespace iowall::measure;

namespace {

void check_sane(const RunInfo& info) {
  const MeasureOptions& o = info.options;
  REQUIRE(info.repeats.size() == static_cast<std::size_t>(o.repeat));
  for (const auto& r : info.repeats) {
    std::uint64_t bytes = 0, ops = 0;
    for (const auto& t : r.threads) {
      bytes += t.read.bytes + t.write.bytes;
      ops += t.read.ops + t.write.ops;
      CHECK(t.end_s >= t.start_s);
      CHECK(t.read.clat_ns.count() == t.read.ops);
      CHECK(t.write.clat_ns.count() == t.write.ops);
      CHECK(t.region_bytes == info.target.size.n / o.threads);
    }
    if (!o.runtime) CHECK(bytes == static_cast<std::uint64_t>(info.target.size.n));
    CHECK(ops * static_cast<std::uint64_t>(o.io_size.n) == bytes);
    CHECK(r.first_done_s <= r.last_done_s);
  }
  // The JSON says the same, and reads back.
  const auto j = to_json(info);
  const MeasurementFile f = parse_measurement_json(nlohmann::json::parse(j.dump()), "(memory)");
  REQUIRE(f.points.size() == info.repeats.size());
  for (const auto& p : f.points) {
    for (const MeasuredDirection* d : {&p.read, &p.write}) {
      if (d->ops == 0) continue;
      CHECK(d->io_bytes == d->ops * static_cast<std::uint64_t>(o.io_size.n));
      // iops x runtime gives back the count (runtime is rounded to whole ms in fio's shape).
      CHECK(d->iops * p.last_done_s == Approx(static_cast<double>(d->ops)).epsilon(1e-6));
      CHECK(static_cast<double>(d->bw_bytes) == Approx(d->iops * static_cast<double>(o.io_size.n)).epsilon(1e-6));
      REQUIRE(d->clat.percentiles_ns.size() == 17);
      std::uint64_t last = 0;
      for (const auto& [pct, v] : d->clat.percentiles_ns) {
        CHECK(v >= last);
        CHECK(v >= d->clat.min_ns);
        CHECK(v <= d->clat.max_ns);
        last = v;
      }
    }
  }
  for (const auto& job : j["jobs"]) {
    CHECK(job["usr_cpu"].get<double>() >= 0.0);
    CHECK(job["sys_cpu"].get<double>() >= 0.0);
  }
}

}  // namespace

TEST_CASE("a short measurement moves exactly the bytes asked for", "[measure][io]") {
  testing::ScratchDir dir;
  const std::string f = dir.file("m.dat");
  const auto engine = GENERATE(Engine::psync, Engine::io_uring);
  const auto xfer = GENERATE(TransferType::cpu_only, TransferType::cpu_cached);
  const char* mode = GENERATE("read", "randread", "write", "randrw");
  if (uses_odirect(xfer) && !dir.direct_io()) {
    WARN("no directory with O_DIRECT support found; cpu_only skipped");
    return;
  }
  INFO(name(engine) << " " << name(xfer) << " " << mode);
  MeasureOptions o = testing::small_run(f, xfer, engine, mode);
  const RunInfo info = run_measurement(o);
  check_sane(info);
  const auto& t = info.repeats[0].threads;
  if (o.mode.read_pct == 100) CHECK(t[0].write.ops + t[1].write.ops == 0);
  if (o.mode.read_pct == 0) CHECK(t[0].read.ops + t[1].read.ops == 0);
  // The file it created is gone.
  CHECK(dir.entries().empty());
}

TEST_CASE("repeats, --keep and a timed run", "[measure][io]") {
  testing::ScratchDir dir;
  const std::string f = dir.file("k.dat");
  MeasureOptions o = testing::small_run(f, TransferType::cpu_cached, Engine::io_uring, "randread");
  o.repeat = 2;
  o.keep = true;
  check_sane(run_measurement(o));
  CHECK(std::filesystem::file_size(f) == 4u << 20);
  // The kept file is now an existing file: read it for a short time.
  o.repeat = 1;
  o.runtime = ms(50);
  o.size.reset();
  const RunInfo timed = run_measurement(o);
  check_sane(timed);
  CHECK(timed.target.kind == TargetKind::existing_file);
  CHECK(timed.repeats[0].threads[0].read.ops > 0);
}

TEST_CASE("the command line writes fio-shaped JSON atomically", "[measure][io]") {
  testing::ScratchDir dir;
  const std::string out = dir.file("result.json");
  testing::run_cli({"-f", dir.file("c.dat"), "-s", "2M", "-i", "256K", "-w", "2", "-x", "cpu_cached", "-I", "rw",
                    "--rwmixread", "70", "--output-format", "json", "--output", out, "--repeat", "2", "--quiet"});
  const MeasurementFile m = read_measurement_file(out);
  REQUIRE(m.points.size() == 2);
  CHECK(m.points[0].options.io_size == Bytes(256 << 10));
  CHECK(m.points[0].options.rwmixread == 70);
  CHECK(m.points[1].read.io_bytes + m.points[1].write.io_bytes == 2u << 20);
  CHECK(dir.entries() == std::vector<std::string>{"result.json"});  // no temp file, no data file
}

TEST_CASE("GPU transfer types fail with one clear line where they cannot run", "[measure][gpu]") {
  testing::ScratchDir dir;
  for (const char* x : {"gpu_direct", "cpu_gpu", "gpu_batch", "cpu_cached_gpu", "0", "2"}) {
    INFO(x);
    try {
      testing::run_cli({"-f", dir.file("g.dat"), "-s", "1 MiB", "-i", "64 KiB", "-x", x, "--quiet"});
      WARN("-x " << x << " ran: this machine has a usable GPU");
    } catch (const InputError& e) {
      CHECK(e.pointer() == "-x");
      CHECK_THAT(e.message(), Catch::Contains("needs"));
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
    }
  }
  CHECK(dir.entries().empty());
}

namespace {

// The share of `path` resident in the page cache.
double resident(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  const std::optional<double> r = page_cache_resident(fd, std::int64_t{1} << 40);
  ::close(fd);
  REQUIRE(r);
  return *r;
}

}  // namespace

TEST_CASE("measure --invalidate drops the target's cached pages before a run, and only with the flag", "[measure][io]") {
  testing::ScratchDir dir;
  if (!dir.direct_io()) {
    WARN("no directory with O_DIRECT support found; --invalidate not checked");
    return;
  }
  const std::string f = dir.file("cached.dat");
  testing::make_file(f, 4 << 20);
  const std::uint64_t before = testing::fingerprint(f);
  auto warm = [&] { testing::run_cli({"-f", f, "-i", "1M", "-x", "cpu_cached", "--quiet"}); };
  // O_DIRECT reads neither fill nor drop the cache, so what is resident afterwards is what
  // the flag left.
  warm();
  REQUIRE(resident(f) > 0);
  testing::run_cli({"-f", f, "-i", "1M", "-x", "cpu_only", "--quiet"});
  CHECK(resident(f) > 0);
  testing::run_cli({"-f", f, "-i", "1M", "-x", "cpu_only", "--invalidate", "--quiet"});
  CHECK(resident(f) == 0);
  CHECK(testing::fingerprint(f) == before);
}

TEST_CASE("a measurement records how much of its file was cached as each repeat began", "[measure][io]") {
  testing::ScratchDir dir;
  if (!dir.direct_io()) {
    WARN("no directory with O_DIRECT support found: not checked");
    return;
  }
  // The file iowall creates is filled, synced and dropped from the cache; the first
  // buffered pass reads all of it in, so the second starts warm.
  MeasureOptions o = testing::small_run(dir.file("fresh.dat"), TransferType::cpu_cached, Engine::psync, "read");
  o.repeat = 2;
  const RunInfo info = run_measurement(o);
  check_sane(info);
  REQUIRE(info.repeats.at(0).page_cache_resident_at_start);
  REQUIRE(info.repeats.at(1).page_cache_resident_at_start);
  CHECK(*info.repeats[0].page_cache_resident_at_start < 0.05);
  CHECK(*info.repeats[1].page_cache_resident_at_start > 0.95);
  const MeasurementFile f = parse_measurement_json(nlohmann::json::parse(to_json(info).dump()), "(memory)");
  CHECK(f.points.at(1).page_cache_resident_at_start == info.repeats[1].page_cache_resident_at_start);
}
