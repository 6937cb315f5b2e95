// fio's durability options on real writes to a temporary file: how many syncs each thread
// issues, when its writes became durable, and fio's "sync" section in the JSON. No timed
// assertions (the machine is shared): counts and the order of events only.
#include <catch2/catch.hpp>

#include <string>

#include "measure/report.hpp"
#include "measure/runner.hpp"
#include "measure_test_util.hpp"

using namespace iowall;
using namespace iowall::measure;

namespace {

// 2 threads x 32 writes of 64 KiB.
MeasureOptions writes(const std::string& file, TransferType x, Engine e = Engine::psync) {
  return testing::small_run(file, x, e, "write");
}

std::uint64_t sync_ops(const RepeatResult& r) {
  std::uint64_t n = 0;
  for (const auto& t : r.threads) n += t.sync.ops;
  return n;
}

}  // namespace

TEST_CASE("measure --fsync N syncs after every N writes of a thread, and the writes are durable after the last", "[measure][io]") {
  testing::ScratchDir dir;
  const auto engine = GENERATE(Engine::psync, Engine::io_uring);
  MeasureOptions o = writes(dir.file("f.dat"), TransferType::cpu_cached, engine);
  o.durability.fsync_every = 4;
  const RunInfo info = run_measurement(o);
  const RepeatResult& r = info.repeats.at(0);
  for (const auto& t : r.threads) {
    CHECK(t.write.ops == 32);
    CHECK(t.sync.ops == 8);
    CHECK(t.sync.clat_ns.count() == 8);
    REQUIRE(t.durable_s);
    REQUIRE(t.writes_done_s);
    CHECK(*t.durable_s >= *t.writes_done_s);  // the last sync came after the last write
    CHECK(t.unsynced_writes == 0);
  }
  const DurableFigures f = durable_figures(r);
  REQUIRE(f.durable_s);
  REQUIRE(f.write_phase_s);
  CHECK(*f.durable_s >= *f.write_phase_s);
  CHECK(f.write_bytes == 4u << 20);
  CHECK(dir.entries().empty());
}

TEST_CASE("writes after the last periodic sync leave the repeat not durable, as fio leaves them", "[measure][io]") {
  testing::ScratchDir dir;
  MeasureOptions o = writes(dir.file("u.dat"), TransferType::cpu_cached);
  o.durability.fdatasync_every = 5;  // 32 writes a thread: 6 syncs, 2 writes left over
  const RunInfo info = run_measurement(o);
  const RepeatResult& r = info.repeats.at(0);
  CHECK(sync_ops(r) == 12);
  const DurableFigures f = durable_figures(r);
  CHECK_FALSE(f.durable_s);
  CHECK(f.unsynced_writes == 4);
  const auto j = to_json(info);
  CHECK(j["iowall"]["repeats"][0]["durable_s"].is_null());
  CHECK(j["iowall"]["repeats"][0]["unsynced_writes"] == 4);
  CHECK(j["iowall"]["options"]["fdatasync"] == 5);
}

TEST_CASE("measure --end-fsync is one sync per thread after its last write, inside its timed run", "[measure][io]") {
  testing::ScratchDir dir;
  MeasureOptions o = writes(dir.file("e.dat"), TransferType::cpu_cached);
  o.durability.end_fsync = true;
  o.repeat = 2;
  const RunInfo info = run_measurement(o);
  for (const auto& r : info.repeats) {
    for (const auto& t : r.threads) {
      CHECK(t.sync.ops == 1);
      REQUIRE(t.durable_s);
      CHECK(*t.durable_s >= *t.writes_done_s);
      CHECK(t.end_s >= *t.durable_s);  // the fsync is part of the thread's run (fio's bandwidth includes it)
    }
  }
  // fio's shape: every job has "sync" {total_ios, lat_ns}; the repeat has the time until durable.
  const auto j = to_json(info);
  for (const auto& job : j["jobs"]) {
    CHECK(job["sync"]["total_ios"] == 1);
    CHECK(job["sync"]["lat_ns"]["N"] == 1);
    CHECK(job["sync"]["lat_ns"]["percentile"].size() == 17);
  }
  const auto& rep = j["iowall"]["repeats"][1];
  CHECK(rep["sync"]["total_ios"] == 2);
  CHECK(rep["durable_s"].get<double>() >= rep["write_phase_s"].get<double>());
  CHECK(rep["durable_bw_bytes"].get<std::uint64_t>() <= rep["write_phase_bw_bytes"].get<std::uint64_t>());
  CHECK(j["iowall"]["options"]["end_fsync"] == true);
}

TEST_CASE("measure --sync opens the target O_DSYNC: no sync calls, durable when the last write returns", "[measure][io]") {
  testing::ScratchDir dir;
  const auto xfer = GENERATE(TransferType::cpu_cached, TransferType::cpu_only);
  if (uses_odirect(xfer) && !dir.direct_io()) {
    WARN("no directory with O_DIRECT support found; cpu_only skipped");
    return;
  }
  MeasureOptions o = writes(dir.file("d.dat"), xfer);
  o.durability.dsync = true;
  const RunInfo info = run_measurement(o);
  const RepeatResult& r = info.repeats.at(0);
  CHECK(sync_ops(r) == 0);
  const DurableFigures f = durable_figures(r);
  REQUIRE(f.durable_s);
  CHECK(*f.durable_s == Approx(*f.write_phase_s));
  CHECK(to_json(info)["iowall"]["options"]["sync"] == "dsync");
}

TEST_CASE("O_DIRECT writes with a periodic fdatasync and io_uring", "[measure][io]") {
  testing::ScratchDir dir;
  if (!dir.direct_io()) {
    WARN("no directory with O_DIRECT support found: not checked");
    return;
  }
  MeasureOptions o = writes(dir.file("o.dat"), TransferType::cpu_only, Engine::io_uring);
  o.durability.fdatasync_every = 8;
  o.durability.end_fsync = true;
  const RunInfo info = run_measurement(o);
  for (const auto& t : info.repeats.at(0).threads) CHECK(t.sync.ops == 4 + 1);
  CHECK(durable_figures(info.repeats[0]).durable_s);
}

TEST_CASE("reads make nothing durable, a write run without durability options is not durable", "[measure][io]") {
  testing::ScratchDir dir;
  MeasureOptions o = writes(dir.file("n.dat"), TransferType::cpu_cached);
  const RunInfo info = run_measurement(o);
  const DurableFigures f = durable_figures(info.repeats.at(0));
  CHECK(f.write_phase_s);
  CHECK_FALSE(f.durable_s);
  CHECK(f.unsynced_writes == 64);
  o.mode = parse_io_mode("read", o.mode_text);
  const RunInfo reads = run_measurement(o);
  const DurableFigures g = durable_figures(reads.repeats.at(0));
  CHECK_FALSE(g.write_phase_s);
  CHECK(to_json(reads)["iowall"]["repeats"][0]["write_phase_s"].is_null());
}

TEST_CASE("buffered writes show in the kernel's count of dirtied pages, and an fsync in its written pages",
          "[measure][io]") {
  testing::ScratchDir dir;
  if (!dir.direct_io()) {  // tmpfs pages are not counted as dirtied
    WARN("no disk-backed scratch directory found: not checked");
    return;
  }
  MeasureOptions o = writes(dir.file("p.dat"), TransferType::cpu_cached);
  o.durability.end_fsync = true;
  const RunInfo info = run_measurement(o);
  const PageCacheUsage& u = info.repeats.at(0).page_cache;
  if (!u.before.nr_dirtied || !u.after.nr_dirtied) {
    WARN("/proc/vmstat has no nr_dirtied here: not checked");
    return;
  }
  // The file was filled, synced and dropped from the cache: each of its 1024 pages is
  // dirtied once by the writes and written once by the fsync (other processes can only add to
  // the system-wide counts). The kernel folds each CPU's counts into them lazily, in steps
  // of up to a few dozen pages per CPU, so they may lag: 1008 of 1024 were seen here.
  CHECK(*u.after.nr_dirtied - *u.before.nr_dirtied >= 768);
  CHECK(*u.after.nr_written - *u.before.nr_written >= 768);
  CHECK(u.samples >= 2);
  const auto j = to_json(info);
  CHECK(j["iowall"]["repeats"][0]["page_cache"]["pages_dirtied"].get<std::int64_t>() >= 768);
  CHECK(j["iowall"]["repeats"][0]["page_cache"]["sample_period_ms"] == 100);
  CHECK(j["iowall"]["vm"].contains("dirty_background_ratio"));
}
