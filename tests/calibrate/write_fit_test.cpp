// The write fits recover known parameters from measurements the simulator itself makes
// of a topology with those parameters (noise-free and noisy), never take a held-out point,
// and leave read calibration as it was.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "measure/calibrate.hpp"
#include "measure/calibrate_topology.hpp"
#include "measure/calibrate_writes.hpp"
#include "measure/validate.hpp"
#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/run/runner.hpp"

using namespace iowall;
using namespace iowall::calib;

namespace {

// The machine the synthetic measurements come from: a batched virtio-like disk (its link
// then never limits writes), one CPU cost per I/O, and known write parameters.
Profile truth() {
  Profile p;
  StorageParams s{10e-6, 3.8e9, 150e3};
  s.read = ReadForm::batched;
  p.storage = s;
  p.cpu = CpuCost{3e-6, 4.3e-12, 5e-6};
  SizeLine memcpy;
  memcpy.fixed_s = 0.6e-6;
  memcpy.bandwidth_Bps = 9e9;
  memcpy.bandwidth_identified = true;
  p.memcpy = memcpy;
  DriveWriteFit d;
  d.latency_s = 20e-6;
  d.bandwidth_Bps = 2.5e9;
  p.writes.drive = d;
  FlushFit f;
  f.cost_s = 80e-6;
  p.writes.flush = f;
  BufferedWriteFit b;
  b.line.fixed_s = 10e-6;
  b.line.bandwidth_Bps = 6e9;
  b.line.bandwidth_identified = true;
  p.writes.buffered = b;
  WritebackFit w;
  w.flusher_Bps = 1.5e9;
  w.flusher_identified = true;
  w.request_bytes = 1 << 20;
  p.writes.writeback = w;
  return p;
}

nlohmann::json base_topology() {
  std::ifstream in(IOWALL_SOURCE_DIR "/topologies/gpu-machine.json");
  return nlohmann::json::parse(in);
}

// A configuration through io_uring, no repeats yet.
PointGroup config(const char* xfer, const char* mode, i64 io_size, int qd, int threads) {
  PointGroup g;
  g.xfer = xfer;
  g.engine = "io_uring";
  g.io_mode = mode;
  g.io_size = io_size;
  g.qd = qd;
  g.threads = threads;
  return g;
}

// Writes of `size` in all, made durable at the end.
PointGroup write_group(const char* xfer, i64 io_size, int qd, int threads, i64 size) {
  PointGroup g = config(xfer, "write", io_size, qd, threads);
  g.size = size;
  g.durable_as.end_fsync = true;
  g.files = {std::string(xfer) + "-synthetic.json"};
  return g;
}

// Three repeats of `g` as the simulator runs it on `topology` (the truth applied), each
// scaled by 1 + noise: its throughput until durable, its write phase and its fsync.
void measure_by_simulation(PointGroup& g, const Profile& p, const nlohmann::json& topology, std::mt19937_64& rng, double noise) {
  const Scenario sc = scenario_from_json(point_scenario(g, p, topology), "synthetic", ".");
  const PathMetrics m = run_scenario(sc).paths.at(0).metrics;
  REQUIRE(m.write_phase_s);
  REQUIRE(m.durable_s);
  std::normal_distribution<double> n(0, noise);
  for (int r = 0; r < 3; ++r) {
    const double f = noise > 0 ? 1 + n(rng) : 1;
    Sample s;
    s.bw_bytes_per_s = m.throughput_GBps * 1e9 * f;
    s.iops = s.bw_bytes_per_s / static_cast<double>(g.io_size);
    s.write_phase_s = *m.write_phase_s / f;
    s.sync_mean_s = (*m.durable_s - *m.write_phase_s) / (noise > 0 ? 1 + n(rng) : 1);
    g.samples.push_back(s);
  }
}

// O_DIRECT writes of 4 KiB-1 MiB at QD 1 and 8 by one and two threads, and buffered writes
// by one thread at QD1: of three I/O sizes, 32 MiB each, and of 1 MiB in 8-128 MiB.
std::vector<PointGroup> synthetic_writes(double noise, unsigned seed, const Profile& p = truth()) {
  const nlohmann::json topology = apply_profile(base_topology(), p, "gpu-machine.json", "truth");
  std::mt19937_64 rng(seed);
  std::vector<PointGroup> groups;
  for (i64 size : {4096, 131072, 1048576})
    for (int qd : {1, 8})
      for (int threads : {1, 2}) groups.push_back(write_group("cpu_only", size, qd, threads, 32 << 20));
  for (i64 size : {4096, 131072, 1048576}) groups.push_back(write_group("cpu_cached", size, 1, 1, 32 << 20));
  for (i64 total : {8 << 20, 128 << 20}) groups.push_back(write_group("cpu_cached", 1 << 20, 1, 1, total));
  for (PointGroup& g : groups) measure_by_simulation(g, p, topology, rng, noise);
  return groups;
}

// Reads by one thread at QD 1 and 8, from the read fit's own closed form of the truth.
std::vector<PointGroup> synthetic_reads(const Profile& t = truth()) {
  std::vector<PointGroup> reads;
  for (i64 size : {4096, 131072, 1048576})
    for (int qd : {1, 8}) {
      PointGroup g = config("cpu_only", "read", size, qd, 1);
      const double cpu = t.cpu->at(qd, static_cast<double>(size));
      const double bw = storage_throughput(*t.storage, static_cast<double>(size), qd, cpu);
      for (int r = 0; r < 3; ++r) {
        Sample s;
        s.bw_bytes_per_s = bw * (1 + 0.01 * r);
        s.iops = s.bw_bytes_per_s / static_cast<double>(size);
        s.cpu_s_per_io = cpu;
        s.clat_p50_ns = 40'000;
        s.clat_p90_ns = 48'000;
        g.samples.push_back(s);
      }
      reads.push_back(g);
    }
  return reads;
}

// The write stages on `groups` with the read side as the truth has it.
Profile fit_writes_of(const std::vector<PointGroup>& groups, const std::string& subset = "all") {
  const Profile t = truth();
  Profile p;
  p.storage = t.storage;
  p.cpu = t.cpu;
  p.memcpy = t.memcpy;
  fit_writes(groups, Subset(subset), p);
  return p;
}

}  // namespace

TEST_CASE("the write closed forms hold to the simulator they stand for", "[calibrate][writes]") {
  // Every synthetic group, noise-free, against the closed form of the truth: the fit can
  // recover only what its closed form and the simulator agree on.
  const Profile p = truth();
  const DriveWriteInputs d = drive_write_inputs(p);
  CHECK(d.link_Bps == 0);  // batched reads: the link is left fast, writes never wait on it
  for (const PointGroup& g : synthetic_writes(0, 1)) {
    INFO(g.key());
    if (g.xfer == "cpu_only") {
      const double closed = direct_write_throughput(d, g, p.cpu->at(g.qd, static_cast<double>(g.io_size)));
      // A lone write also pays the NVMe protocol's own time (doorbell, fetch, completion,
      // interrupt: about 2 us), which the closed form leaves to the fitted latency.
      CHECK(closed / g.median_bw() == Approx(1).margin(g.qd == 1 ? 0.07 : 0.01));
    } else if (g.io_size == 1 << 20) {
      const double closed =
          writeback_sync_time(d, dirty_per_sync(g), 1 << 20, kWritebackDepth, p.writes.writeback->flusher_Bps);
      CHECK(closed / *g.median_sync_s() == Approx(1).margin(0.05));
    }
  }
}

TEST_CASE("calibrate recovers the drive's write parameters and the page cache's writeback from simulated writes",
          "[calibrate][writes]") {
  const Profile t = truth();
  for (const double noise : {0.0, 0.03}) {
    INFO("noise " << noise);
    const Profile p = fit_writes_of(synthetic_writes(noise, 7));
    REQUIRE(p.writes.flush);
    CHECK(p.writes.flush->cost_s == Approx(t.writes.flush->cost_s).epsilon(0.02 + noise));
    REQUIRE(p.writes.drive);
    CHECK(p.writes.drive->bandwidth_Bps == Approx(t.writes.drive->bandwidth_Bps).epsilon(0.02 + noise));
    // The fitted latency holds the protocol's time the closed form leaves out (above).
    CHECK(p.writes.drive->latency_s > t.writes.drive->latency_s - (noise > 0 ? 3e-6 : 0));
    CHECK(p.writes.drive->latency_s < t.writes.drive->latency_s + 4e-6);
    REQUIRE(p.writes.buffered);
    REQUIRE(p.writes.buffered->line.bandwidth_identified);
    CHECK(p.writes.buffered->line.fixed_s == Approx(t.writes.buffered->line.fixed_s).epsilon(0.05 + 2 * noise));
    CHECK(p.writes.buffered->line.bandwidth_Bps ==
          Approx(t.writes.buffered->line.bandwidth_Bps).epsilon(0.02 + 2 * noise));
    REQUIRE(p.writes.writeback);
    REQUIRE(p.writes.writeback->flusher_identified);
    CHECK(p.writes.writeback->flusher_Bps == Approx(t.writes.writeback->flusher_Bps).epsilon(0.03 + noise));
    // Each fit names the files its points came from.
    CHECK(p.writes.drive->from.files == std::vector<std::string>{"cpu_only-synthetic.json"});
    CHECK(p.writes.writeback->from.files == std::vector<std::string>{"cpu_cached-synthetic.json"});
    CHECK(p.writes.drive->from.points.size() == 12);
  }
}

TEST_CASE("the writeback fit says so when the drive, not the flusher, sets the writeback rate", "[calibrate][writes]") {
  // A flusher faster than the drive: the fsyncs take what the drive takes.
  Profile fast = truth();
  fast.writes.writeback->flusher_Bps = 20e9;
  const std::vector<PointGroup> groups = synthetic_writes(0, 1, fast);
  const Profile p = fit_writes_of(groups);
  REQUIRE(p.writes.writeback);
  CHECK_FALSE(p.writes.writeback->flusher_identified);
  CHECK(std::any_of(p.notes.begin(), p.notes.end(),
                    [](const std::string& n) { return n.find("flusher's rate is not what bounds") != std::string::npos; }));
}

TEST_CASE("the write fits never take a held-out point", "[calibrate][writes][validate]") {
  std::vector<PointGroup> groups = synthetic_writes(0, 3);
  const Profile clean = fit_writes_of(groups, "threads=1");
  // Held-out points made absurd change nothing that was fitted.
  for (PointGroup& g : groups)
    if (g.threads == 2)
      for (Sample& s : g.samples) {
        s.bw_bytes_per_s *= 10;
        s.sync_mean_s = *s.sync_mean_s * 10;
        s.write_phase_s = *s.write_phase_s / 10;
      }
  const Profile p = fit_writes_of(groups, "threads=1");
  REQUIRE(p.writes.drive);
  CHECK(p.writes.drive->latency_s == clean.writes.drive->latency_s);
  CHECK(p.writes.drive->bandwidth_Bps == clean.writes.drive->bandwidth_Bps);
  CHECK(p.writes.flush->cost_s == clean.writes.flush->cost_s);
  CHECK(p.writes.writeback->flusher_Bps == clean.writes.writeback->flusher_Bps);
  // Every point a fit names is in the subset.
  for (const Sources* from : {&p.writes.drive->from, &p.writes.flush->from, &p.writes.buffered->from,
                              &p.writes.writeback->from})
    for (const std::string& key : from->points) {
      INFO(key);
      CHECK(key.find(" t1 ") != std::string::npos);
    }

  // And validate reports the held-out writes against a fit of the others only (the
  // reads, all of one thread, give the read fits the drive's writes need).
  for (const PointGroup& g : synthetic_reads()) groups.push_back(g);
  const ValidationResult v = validate(groups, Subset("threads=1"), base_topology(), "gpu-machine.json");
  REQUIRE(v.fit.writes.drive);
  int held = 0;
  for (const PredictedPoint& r : v.rows) {
    CHECK(r.fitted == (r.group->threads == 1));
    if (r.fitted) continue;
    ++held;
    for (const Sources* from : {&v.fit.writes.drive->from, &v.fit.writes.flush->from})
      CHECK(std::find(from->points.begin(), from->points.end(), r.group->key()) == from->points.end());
    REQUIRE(r.predicted_bw > 0);
    CHECK(r.error == Approx(-0.9).margin(0.05));  // the tenfold "measurement" is predicted as it was
  }
  CHECK(held == 6);
  REQUIRE(v.held_out_by_type.count(kAllWrites) == 1);
  CHECK(v.held_out_by_type.at(kAllWrites).points == 6);
  CHECK(v.held_out_by_type.count("cpu_only write") == 1);
}

TEST_CASE("write points leave the read fits as they were, and a profile keeps its write fits", "[calibrate][writes]") {
  // Reads of a disk, alone and with writes beside them.
  const std::vector<PointGroup> reads = synthetic_reads();
  std::vector<PointGroup> both = reads;
  for (const PointGroup& g : synthetic_writes(0, 5)) both.push_back(g);
  Profile alone = calibrate(reads, Subset("all")), with = calibrate(both, Subset("all"));
  CHECK_FALSE(alone.writes.any());
  nlohmann::json ja = profile_to_json(alone), jw = profile_to_json(with);
  for (const char* k : {"storage", "cpu"}) CHECK(ja["fits"][k] == jw["fits"][k]);
  for (const char* k : {"flush", "drive_writes", "buffered_writes", "writeback"}) {
    CHECK_FALSE(ja["fits"].contains(k));
    CHECK(jw["fits"].contains(k));
  }
  // The JSON form reads back.
  const Profile back = profile_from_json(jw, "profile.json");
  REQUIRE(back.writes.drive);
  CHECK(back.writes.drive->latency_s == Approx(with.writes.drive->latency_s).epsilon(1e-3));
  CHECK(back.writes.drive->bandwidth_Bps == Approx(with.writes.drive->bandwidth_Bps).epsilon(1e-3));
  REQUIRE(back.writes.writeback);
  CHECK(back.writes.writeback->flusher_Bps == Approx(with.writes.writeback->flusher_Bps).epsilon(1e-3));
  REQUIRE(back.writes.flush);
  CHECK(back.writes.flush->cost_s == Approx(with.writes.flush->cost_s).epsilon(1e-3));

  // The calibrated topology carries the drive's write parameters with their fit's standard
  // errors, and the sources say where they came from.
  const nlohmann::json t = apply_profile(base_topology(), with, "gpu-machine.json", "profile.json");
  bool found = false;
  for (const auto& d : t["devices"])
    if (d["model"] == "nvme_ssd") {
      found = true;
      CHECK(d["write_latency"] == time_text(with.writes.drive->latency_s) + spread_text(with.relative_se.at("write_latency")));
      CHECK(d["write_bandwidth"] ==
            bandwidth_text(with.writes.drive->bandwidth_Bps) + spread_text(with.relative_se.at("write_bandwidth")));
      CHECK(d["flush_cost"] == time_text(with.writes.flush->cost_s));
    }
  CHECK(found);
  REQUIRE(t.contains("sources"));
  CHECK(t["sources"][0].get<std::string>().find("cpu_only-synthetic.json") != std::string::npos);
  // The page cache's writeback goes with the machine: its topology's own cpu_cached
  // settings, which every scenario and plan on it reads through; reads alone fit none.
  REQUIRE(with.writes.writeback->flusher_identified);
  CHECK(t.at("/paths/cpu_cached/flusher_bandwidth"_json_pointer) == bandwidth_text(with.writes.writeback->flusher_Bps));
  CHECK_FALSE(apply_profile(base_topology(), alone, "gpu-machine.json", "profile.json").contains("paths"));
}

TEST_CASE("a write measurement must say how it was made durable, and its mode must be one calibration knows",
          "[calibrate][writes]") {
  // A real write measurement, then broken copies of it.
  const std::string dir = IOWALL_SOURCE_DIR "/reports/calibration/gpu-machine/checkpoint-h200/writes/";
  std::ifstream in(dir + "cpu_cached-write-1M-qd1-t1-r1.json");
  const nlohmann::json good = nlohmann::json::parse(in);
  const std::vector<PointGroup> g = load_points({dir + "cpu_cached-write-1M-qd1-t1-r1.json"});
  REQUIRE(g.size() == 1);
  CHECK(g[0].writes());
  CHECK(g[0].durability() == "fsync_end");
  CHECK(g[0].key() == "cpu_cached io_uring 1 MiB qd1 t1 write end_fsync");
  CHECK(g[0].size == i64{1} << 30);
  CHECK(g[0].max_request_bytes == i64{4} << 20);
  REQUIRE(g[0].vm);
  CHECK(g[0].vm->dirty_ratio == 20);
  CHECK(g[0].median_sync_s() == Approx(0.3192).epsilon(0.01));

  const std::string path = (std::filesystem::temp_directory_path() / "iowall-write-bad.json").string();
  auto error_of = [&](const nlohmann::json& j) -> std::pair<std::string, std::string> {
    std::ofstream(path) << j.dump();
    try {
      load_points({path});
    } catch (const InputError& e) {
      return {e.where(), e.pointer()};
    }
    return {"", "accepted"};
  };
  nlohmann::json j = good;
  for (const char* k : {"end_fsync", "fsync", "fdatasync", "sync"}) j["iowall"]["options"].erase(k);
  CHECK(error_of(j) == std::pair<std::string, std::string>{path, "/iowall/options/end_fsync"});
  j = good;
  j["iowall"]["options"].erase("fdatasync");  // some of the four but not all
  CHECK(error_of(j) == std::pair<std::string, std::string>{path, "/iowall/options/fdatasync"});
  for (const char* mode : {"scribble", "rw", "randrw"}) {
    j = good;
    j["iowall"]["options"]["io_mode"] = mode;
    CHECK(error_of(j) == std::pair<std::string, std::string>{path, "/iowall/options/io_mode"});
  }
  std::filesystem::remove(path);
}

TEST_CASE("a serial write service: its closed form holds to the simulator and the fit tells it from pipelined",
          "[calibrate][writes]") {
  // Requests up to 4 MiB reach the drive whole (a virtio disk's max_sectors_kb): a 1 MiB
  // write is one command, which holds the controller for 1/max_iops + size/write_bandwidth.
  Profile t = truth();
  t.storage->mdts_bytes = 4 << 20;
  t.writes.drive->serial = true;
  const DriveWriteInputs d = drive_write_inputs(t);
  REQUIRE(d.serial);
  const std::vector<PointGroup> groups = synthetic_writes(0, 1, t);
  for (const PointGroup& g : groups) {
    if (g.xfer != "cpu_only") continue;
    INFO(g.key());
    const double closed = direct_write_throughput(d, g, t.cpu->at(g.qd, static_cast<double>(g.io_size)));
    CHECK(closed / g.median_bw() == Approx(1).margin(g.qd == 1 ? 0.07 : 0.01));
  }
  // In series the ceiling grows with the request: 1 MiB at depth beats 128 KiB.
  CHECK(drive_write_ceiling(d, 1 << 20) > 1.05 * drive_write_ceiling(d, 128 << 10));
  Profile p;
  p.storage = t.storage;
  p.cpu = t.cpu;
  p.memcpy = t.memcpy;
  fit_writes(groups, Subset("all"), p);
  REQUIRE(p.writes.drive);
  CHECK(p.writes.drive->serial);
  CHECK(p.writes.drive->bandwidth_Bps == Approx(t.writes.drive->bandwidth_Bps).epsilon(0.03));
  // The pipelined truth's points keep the pipelined service.
  const Profile q = fit_writes_of(synthetic_writes(0, 1));
  REQUIRE(q.writes.drive);
  CHECK_FALSE(q.writes.drive->serial);
}

TEST_CASE("io_uring buffered writes: one file's io-wq worker runs them one at a time, the handoff beside",
          "[calibrate][writes]") {
  // The truth's QD1 buffered write (fixed + size / bandwidth) splits into a serial part on
  // the file's worker and a handoff; at QD8 only the serial part shows, and the io_wq fit
  // recovers it from simulated QD8 writes.
  Profile t = truth();
  const double fixed = t.writes.buffered->line.fixed_s;
  t.writes.buffered->io_wq_serial_s = fixed / 4;
  const nlohmann::json topology = apply_profile(base_topology(), t, "gpu-machine.json", "truth");
  std::mt19937_64 rng(3);
  std::vector<PointGroup> groups = synthetic_writes(0, 1, t);
  for (int threads : {1, 2}) {
    PointGroup g = write_group("cpu_cached", 4096, 8, threads, 8 << 20);
    measure_by_simulation(g, t, topology, rng, 0);
    groups.push_back(g);
  }
  const PointGroup& qd8 = groups[groups.size() - 2];
  const PointGroup& qd8_two = groups.back();
  const double per_write = *qd8.median_write_phase_s() / 2048;
  const double serial = fixed / 4 + 4096 / t.writes.buffered->line.bandwidth_Bps;
  CHECK(per_write == Approx(serial).epsilon(0.1));
  // Two threads' writes of one file share its worker: no faster than one thread's.
  CHECK(*qd8_two.median_write_phase_s() / 2048 == Approx(per_write).epsilon(0.1));
  const Profile p = fit_writes_of(groups);
  REQUIRE(p.writes.buffered);
  REQUIRE(p.writes.buffered->io_wq_serial_s);
  CHECK(*p.writes.buffered->io_wq_serial_s == Approx(fixed / 4).epsilon(0.25));
  CHECK(p.writes.buffered->io_wq_from.points.size() == 2);
}

TEST_CASE("a read service whose link would hold O_DIRECT writes below their measured rate is not kept",
          "[calibrate][writes]") {
  // Reads of a drive whose commands overlap its data (its fitted ceiling, 1.6 GB/s, then sits
  // on the drive's link), and O_DIRECT writes of the batched truth that reach more than that
  // (2.5 GB/s drive writes: about 2.2 GB/s at 1 MiB QD8). Alone the reads keep overlapped;
  // with the writes beside them that form would cap every write at 1.6 GB/s, so it is not kept.
  Profile overlapped = truth();
  overlapped.storage->read = ReadForm::overlapped;
  overlapped.storage->bandwidth_Bps = 1.6e9;
  const std::vector<PointGroup> reads = synthetic_reads(overlapped);
  const Profile alone = calibrate(reads, Subset("all"));
  REQUIRE(alone.storage);
  CHECK(alone.storage->read == ReadForm::overlapped);
  std::vector<PointGroup> both = reads;
  double fastest = 0;
  for (const PointGroup& g : synthetic_writes(0, 5)) {
    both.push_back(g);
    if (g.xfer == "cpu_only" && g.durability() != "o_dsync") fastest = std::max(fastest, g.median_bw());
  }
  REQUIRE(fastest > 1.6e9 * 1.1);
  const Profile with = calibrate(both, Subset("all"));
  REQUIRE(with.storage);
  CHECK(with.storage->read != ReadForm::overlapped);
  CHECK((with.storage->read == ReadForm::batched || with.storage->bandwidth_Bps >= fastest));
  CHECK(std::any_of(with.notes.begin(), with.notes.end(),
                    [](const std::string& n) { return n.find("reads beside would put") != std::string::npos; }));
}
