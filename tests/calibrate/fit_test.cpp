// The fits recover known parameters from synthetic data with noise.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "measure/calibrate.hpp"
#include "measure/fit.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/error.hpp"

using namespace iowall;
using namespace iowall::calib;

namespace {

// Repeats of one configuration, as load_points would group them.
PointGroup group(const char* xfer, i64 io_size, int qd, int threads, double bw, double cpu_s_per_io) {
  PointGroup g;
  g.xfer = xfer;
  g.engine = "io_uring";
  g.io_mode = "read";
  g.io_size = io_size;
  g.qd = qd;
  g.threads = threads;
  for (int r = 0; r < 3; ++r) {
    Sample s;
    s.bw_bytes_per_s = bw;
    s.iops = bw / static_cast<double>(io_size);
    s.cpu_s_per_io = cpu_s_per_io;
    s.clat_p50_ns = 50'000;
    s.clat_p90_ns = 50'000 * std::exp(1.2816 * 0.2);
    g.samples.push_back(s);
  }
  return g;
}

}  // namespace

TEST_CASE("linear least squares recovers a line from noisy points", "[calibrate][fit]") {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0, 0.02);
  Eigen::MatrixXd x(40, 2);
  Eigen::VectorXd y(40);
  for (int i = 0; i < 40; ++i) {
    x(i, 0) = 1;
    x(i, 1) = i;
    y[i] = (3.0 + 0.5 * i) * (1 + noise(rng));
  }
  const fit::LinearResult r = fit::linear(x, y);
  CHECK(r.beta[0] == Approx(3.0).epsilon(0.15));
  CHECK(r.beta[1] == Approx(0.5).epsilon(0.03));
  CHECK(r.q.r2 > 0.98);
  CHECK(r.q.points == 40);
}

TEST_CASE("linear least squares refuses a design that does not determine the parameters", "[calibrate][fit]") {
  Eigen::MatrixXd x(3, 2);
  x << 1, 2, 1, 2, 1, 2;
  Eigen::VectorXd y(3);
  y << 1, 2, 3;
  CHECK_THROWS_AS(fit::linear(x, y), std::invalid_argument);
}

TEST_CASE("Levenberg-Marquardt recovers an exponential decay", "[calibrate][fit]") {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0, 0.01);
  std::vector<double> t, y;
  for (int i = 0; i < 30; ++i) {
    t.push_back(i * 0.2);
    y.push_back(5.0 * std::exp(-0.7 * t.back()) + 1.0 + noise(rng));
  }
  auto f = [&](const Eigen::VectorXd& p, Eigen::VectorXd& r) {
    for (int i = 0; i < 30; ++i) r[i] = p[0] * std::exp(-p[1] * t[i]) + p[2] - y[i];
  };
  Eigen::VectorXd p0(3);
  p0 << 1, 0.1, 0;
  const fit::LmResult r = fit::levenberg_marquardt(f, p0, 30);
  CHECK(r.p[0] == Approx(5.0).epsilon(0.02));
  CHECK(r.p[1] == Approx(0.7).epsilon(0.02));
  CHECK(r.p[2] == Approx(1.0).epsilon(0.03));
}

TEST_CASE("calibrate recovers storage latency, bandwidth, command ceiling and CPU cost", "[calibrate][fit]") {
  StorageParams truth;
  truth.latency_s = 80e-6;
  truth.bandwidth_Bps = 2.2e9;
  truth.max_iops = 150e3;
  const CpuCost cpu{2e-6, 20e-12, 6e-6};  // 20 ps per byte: about 21 us per MiB
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0, 0.02);
  std::vector<PointGroup> groups;
  for (i64 size : {4096, 16384, 131072, 1048576})
    for (int qd : {1, 4, 16})
      for (int threads : {1, 2}) {
        const double bw = storage_throughput(truth, static_cast<double>(size), qd * threads, cpu.at(qd, static_cast<double>(size)));
        groups.push_back(group("cpu_only", size, qd, threads, bw * (1 + noise(rng)), cpu.at(qd, static_cast<double>(size)) * (1 + noise(rng))));
      }
  const Profile p = calibrate(groups, Subset("all"));
  REQUIRE(p.storage);
  CHECK(p.storage->latency_s == Approx(truth.latency_s).epsilon(0.10));
  CHECK(p.storage->bandwidth_Bps == Approx(truth.bandwidth_Bps).epsilon(0.05));
  CHECK(p.storage->max_iops == Approx(truth.max_iops).epsilon(0.05));
  CHECK(p.iops_constrained);
  CHECK(p.storage->read == ReadForm::overlapped);  // command processing beside the data path fits these points
  REQUIRE(p.cpu);
  CHECK(p.cpu->per_io_s == Approx(2e-6).epsilon(0.15));
  CHECK(p.cpu->per_byte_s == Approx(20e-12).epsilon(0.05));
  CHECK(p.cpu->per_call_s == Approx(6e-6).epsilon(0.05));
  CHECK(p.latency_sigma == Approx(0.2).epsilon(0.01));
  CHECK(p.storage_q.r2 > 0.95);
}

// cpu_only points of 4 KiB-1 MiB at QD 1 and 8, one and two threads, drawn from the
// fit's own closed form of `truth` with 2% noise.
static std::vector<PointGroup> points_of(const StorageParams& truth, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, 0.02);
  std::vector<PointGroup> groups;
  for (i64 size : {4096, 131072, 1048576})
    for (int qd : {1, 8})
      for (int threads : {1, 2}) {
        const double bw = storage_throughput(truth, static_cast<double>(size), qd * threads, 4e-6);
        groups.push_back(group("cpu_only", size, qd, threads, bw * (1 + noise(rng)), 4e-6));
      }
  return groups;
}

TEST_CASE("calibrate tells reads in series, and served in batches, from reads beside command processing",
          "[calibrate][fit]") {
  // Emulated disks: 10 us per command, then the data at 2.4 GB/s, one request after another;
  // the batched one also wakes 25 us per batch of the I/Os in flight.
  for (const ReadForm form : {ReadForm::serial, ReadForm::batched}) {
    const bool batched = form == ReadForm::batched;
    StorageParams truth{batched ? 25e-6 : 15e-6, 2.4e9, 100e3};
    truth.read = form;
    const Profile p = calibrate(points_of(truth, batched ? 4 : 3), Subset("all"));
    REQUIRE(p.storage);
    CHECK(p.storage->read == form);
    if (batched) CHECK(p.storage->latency_s == Approx(truth.latency_s).epsilon(0.15));
    CHECK(p.storage->bandwidth_Bps == Approx(truth.bandwidth_Bps).epsilon(0.05));
    CHECK(p.storage->max_iops == Approx(truth.max_iops).epsilon(0.10));
    CHECK(p.storage->copy_cache_bytes == 0);  // nothing slows with the buffers: no copy cache
    // The profile names the drive's read service, and reads it back.
    const nlohmann::json j = profile_to_json(p);
    CHECK(j["fits"]["storage"]["read_service"] == (batched ? "batched" : "serial"));
    const Profile back = profile_from_json(j, "profile.json");
    REQUIRE(back.storage);
    CHECK(back.storage->read == form);
  }
}

TEST_CASE("calibrate finds a virtual disk's copy cache where reads slow with the memory they land in",
          "[calibrate][fit]") {
  // The batched disk of the test above, whose reads land in memory the host's cache holds up
  // to 6 MiB of buffers and fetch it first beyond (at 9 GB/s: 0.111 ns a byte more). The
  // points' buffers are concurrency x size: 1 MiB at QD 8 by two threads is 16 MiB, all of
  // it cold (1/2.4 GB/s + 1/9 GB/s: a fifth slower), by one thread 8 MiB, a third cold; the
  // rest fit within. The grid holds 6 MiB, and the draws are the fit's own closed form.
  StorageParams truth{25e-6, 2.4e9, 100e3};
  truth.read = ReadForm::batched;
  truth.copy_cache_bytes = 6.0 * 1048576;
  truth.cold_copy_Bps = 9e9;
  const Profile p = calibrate(points_of(truth, 5), Subset("all"));
  REQUIRE(p.storage);
  CHECK(p.storage->read == ReadForm::batched);
  CHECK(p.storage->copy_cache_bytes == truth.copy_cache_bytes);
  CHECK(p.storage->cold_copy_Bps == Approx(truth.cold_copy_Bps).epsilon(0.20));
  CHECK(p.storage->bandwidth_Bps == Approx(truth.bandwidth_Bps).epsilon(0.05));
  // Written into the profile, and read back.
  const nlohmann::json j = profile_to_json(p);
  CHECK(j["fits"]["storage"]["copy_cache"] == "6 MiB");
  const Profile back = profile_from_json(j, "profile.json");
  REQUIRE(back.storage);
  CHECK(back.storage->copy_cache_bytes == truth.copy_cache_bytes);
  CHECK(back.storage->cold_copy_Bps == Approx(p.storage->cold_copy_Bps).epsilon(1e-3));
  // A profile's copy cache of 0 B is refused where it is read, naming the key.
  nlohmann::json bad = j;
  bad["fits"]["storage"]["copy_cache"] = "0 B";
  CHECK_THROWS_WITH(profile_from_json(bad, "profile.json"), Catch::Contains("/fits/storage/copy_cache"));
}

TEST_CASE("a profile's read service is one the nvme_ssd declares, the old flags are refused", "[calibrate][fit]") {
  // Every form's name is a choice of the registry's nvme_ssd "read_service".
  const ModelEntry* drive = ModelRegistry::instance().find("device", "nvme_ssd");
  REQUIRE(drive);
  std::vector<std::string> choices;
  for (const ParamInfo& pi : drive->describe().params)
    if (pi.name == "read_service") choices = pi.choices;
  for (const ReadForm f : {ReadForm::overlapped, ReadForm::serial, ReadForm::batched})
    CHECK(std::find(choices.begin(), choices.end(), read_service_name(f)) != choices.end());
  // A profile with serial_reads or batched_reads (before read_service) is an input error
  // at that key, not silently read as overlapped.
  StorageParams truth{15e-6, 2.4e9, 100e3};
  truth.read = ReadForm::batched;
  nlohmann::json j = profile_to_json(calibrate(points_of(truth, 4), Subset("all")));
  j["fits"]["storage"].erase("read_service");
  j["fits"]["storage"]["batched_reads"] = true;
  try {
    profile_from_json(j, "old.json");
    FAIL("an old profile was accepted");
  } catch (const InputError& e) {
    CHECK(e.pointer() == "/fits/storage/batched_reads");
  }
  j["fits"]["storage"].erase("batched_reads");
  j["fits"]["storage"]["read_service"] = "sideways";
  CHECK_THROWS_AS(profile_from_json(j, "bad.json"), InputError);
}

TEST_CASE("calibrate says so when no point reaches the command-rate ceiling", "[calibrate][fit]") {
  StorageParams truth{80e-6, 2.2e9, 1e6};
  std::vector<PointGroup> groups;
  for (i64 size : {4096, 65536, 1048576})
    groups.push_back(group("cpu_only", size, 1, 1, storage_throughput(truth, static_cast<double>(size), 1, 5e-6), 5e-6));
  const Profile p = calibrate(groups, Subset("all"));
  REQUIRE(p.storage);
  CHECK_FALSE(p.iops_constrained);
  CHECK(p.storage->latency_s == Approx(truth.latency_s).epsilon(0.05));
  CHECK_FALSE(p.notes.empty());
}

TEST_CASE("calibrate recovers memcpy bandwidth and the host-to-device copy from type differences", "[calibrate][fit]") {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(0, 0.01);
  const StorageParams disk{60e-6, 3e9, 1e6};
  std::vector<PointGroup> groups;
  for (i64 size : {4096, 65536, 1048576, 4194304}) {
    const double s = static_cast<double>(size);
    const double t_cached = 3e-6 + s / 8e9;  // per I/O: fixed cost + copy at 8 GB/s
    groups.push_back(group("cpu_cached", size, 1, 1, s / t_cached * (1 + noise(rng)), t_cached));
    const double bw_only = storage_throughput(disk, s, 1, 4e-6);
    groups.push_back(group("cpu_only", size, 1, 1, bw_only, 4e-6));
    const double t_gpu = s / bw_only + 10e-6 + s / 25e9;  // serial copy: launch + size / 25 GB/s
    groups.push_back(group("cpu_gpu", size, 1, 1, s / t_gpu * (1 + noise(rng) / 10), 4e-6));
  }
  const Profile p = calibrate(groups, Subset("all"));
  REQUIRE(p.memcpy);
  CHECK(p.memcpy->bandwidth_Bps == Approx(8e9).epsilon(0.05));
  CHECK(p.memcpy->fixed_s == Approx(3e-6).epsilon(0.05));
  REQUIRE(p.h2d);
  REQUIRE(p.h2d->bandwidth_identified);
  CHECK(p.h2d->bandwidth_Bps == Approx(25e9).epsilon(0.15));
  CHECK(p.h2d->fixed_s == Approx(10e-6).epsilon(0.15));
}

// A copy with no fixed cost at 25 GB/s, measured 3% fast at 4 KiB, 1% fast at 64 KiB, 1% slow
// at 1 MiB and 3% slow at 4 MiB: time per byte growing with size, which a free line a + s / bw
// takes as a < 0. A fixed cost is never negative, so the fit holds it at zero and takes the
// line through the origin: in relative errors its slope is sum(u) / sum(u^2) of 25 GB/s's with
// u = 1 / (1 + error), 0.999 of it, so the bandwidth is 25.03 GB/s (1% allowed); and the profile
// reads back (a negative time is refused there).
TEST_CASE("a size line whose free intercept falls below zero is fitted through the origin", "[calibrate][fit]") {
  const StorageParams disk{60e-6, 3e9, 1e6};
  std::vector<PointGroup> groups;
  for (i64 size : {4096, 65536, 1048576, 4194304}) {
    const double s = static_cast<double>(size);
    const double bw_only = storage_throughput(disk, s, 1, 4e-6);
    groups.push_back(group("cpu_only", size, 1, 1, bw_only, 4e-6));
    const double error = size == 4096 ? -0.03 : size == 65536 ? -0.01 : size == 1048576 ? 0.01 : 0.03;
    const double copy = s / 25e9 * (1 + error);
    groups.push_back(group("cpu_gpu", size, 1, 1, s / (s / bw_only + copy), 4e-6));
  }
  Profile p = calibrate(groups, Subset("all"));
  REQUIRE(p.h2d);
  CHECK(p.h2d->fixed_s == 0);
  REQUIRE(p.h2d->bandwidth_identified);
  CHECK(p.h2d->bandwidth_Bps == Approx(25e9).epsilon(0.01));
  p.name = "synthetic";
  const Profile back = profile_from_json(profile_to_json(p), "profile.json");
  REQUIRE(back.h2d);
  CHECK(back.h2d->fixed_s == 0);
  CHECK(back.h2d->bandwidth_Bps == Approx(p.h2d->bandwidth_Bps).epsilon(1e-3));
}

TEST_CASE("a profile survives its JSON form", "[calibrate]") {
  std::vector<PointGroup> groups;
  const StorageParams truth{80e-6, 2.2e9, 150e3};
  for (i64 size : {4096, 131072, 1048576})
    for (int qd : {1, 8})
      groups.push_back(group("cpu_only", size, qd, 1, storage_throughput(truth, static_cast<double>(size), qd, 4e-6), 4e-6));
  Profile p = calibrate(groups, Subset("all"));
  p.name = "synthetic";
  const Profile back = profile_from_json(profile_to_json(p), "profile.json");
  REQUIRE(back.storage);
  CHECK(back.storage->latency_s == Approx(p.storage->latency_s).epsilon(1e-3));
  CHECK(back.storage->bandwidth_Bps == Approx(p.storage->bandwidth_Bps).epsilon(1e-3));
  CHECK(back.storage->max_iops == Approx(p.storage->max_iops).epsilon(1e-3));
  REQUIRE(back.cpu);
  CHECK(back.cpu->at(1, 4096) == Approx(p.cpu->at(1, 4096)).epsilon(1e-3));
}

// The standard error a fit reports is the spread its parameters really have: refitting
// points drawn afresh with the same noise (4% per point, on throughput) gives fitted
// values whose standard deviation (of the log, a relative spread) is what each fit said
// of itself. With 120 refits the sample sd is within about 13% (1 / sqrt(2 x 119), two
// sd 26%) of the true one; the reported errors vary less. 30% allows for both and for
// the linearisation around the solution; a standard error off by a factor of two, or
// one that ignored the noise, fails.
TEST_CASE("calibrate's standard errors match the spread of refits under known noise", "[calibrate][fit][uncertainty]") {
  StorageParams truth;
  truth.latency_s = 80e-6;
  truth.bandwidth_Bps = 2.2e9;
  truth.max_iops = 150e3;
  const CpuCost cpu{2e-6, 20e-12, 6e-6};
  const auto profile = [&](unsigned seed, double sd) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0, sd);
    std::vector<PointGroup> groups;
    for (i64 size : {4096, 16384, 131072, 1048576})
      for (int qd : {1, 4, 16})
        for (int threads : {1, 2}) {
          const double c = cpu.at(qd, static_cast<double>(size));
          const double bw = storage_throughput(truth, static_cast<double>(size), qd * threads, c);
          groups.push_back(group("cpu_only", size, qd, threads, bw * std::exp(noise(rng)), c));
        }
    return calibrate(groups, Subset("all"));
  };
  std::map<std::string, std::vector<double>> logs, ses;
  for (unsigned seed = 1; seed <= 120; ++seed) {
    const Profile p = profile(seed, 0.04);
    REQUIRE(p.storage);
    logs["read_bandwidth"].push_back(std::log(p.storage->bandwidth_Bps));
    logs["read_latency"].push_back(std::log(p.storage->latency_s));
    for (const char* k : {"read_bandwidth", "read_latency"}) {
      REQUIRE(p.relative_se.count(k));
      ses[k].push_back(p.relative_se.at(k));
    }
  }
  for (const char* k : {"read_bandwidth", "read_latency"}) {
    INFO(k);
    const std::vector<double>& v = logs[k];
    double mean = 0, ss = 0, se = 0;
    for (double x : v) mean += x / static_cast<double>(v.size());
    for (double x : v) ss += (x - mean) * (x - mean);
    for (double s : ses[k]) se += s / static_cast<double>(ses[k].size());
    const double sd = std::sqrt(ss / static_cast<double>(v.size() - 1));
    CHECK(se == Approx(sd).epsilon(0.30));
  }
  // Three times the noise, three times the error; the profile rounds errors to 3 digits (the design is the same).
  const Profile quiet = profile(7, 0.01), loud = profile(7, 0.03);
  CHECK(loud.relative_se.at("read_bandwidth") / quiet.relative_se.at("read_bandwidth") == Approx(3).epsilon(0.15));
  // The profile writes each error and the value in the topology's syntax, and reads them back.
  const nlohmann::json j = profile_to_json(loud);
  const std::string text = j["fits"]["storage"]["with_uncertainty"]["read_bandwidth"];
  CHECK(text == j["fits"]["storage"]["read_bandwidth"].get<std::string>() + spread_text(loud.relative_se.at("read_bandwidth")));
  CHECK(text.find(" +- ") != std::string::npos);
  CHECK(profile_from_json(j, "p.json").relative_se.at("read_latency") ==
        Approx(loud.relative_se.at("read_latency")).epsilon(0.005));
  CHECK(spread_text(0.0623) == " +- 6.2%");
  CHECK(spread_text(1.5).empty());  // no normal spread as wide as the value
}
