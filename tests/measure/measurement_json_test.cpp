// The reader of measurement JSON: values come back, and malformed files are named by
// file and JSON pointer.
#include <catch2/catch.hpp>

#include <fstream>

#include "measure/measurement_json.hpp"
#include "measure/report.hpp"
#include "measure_test_util.hpp"
#include "sim/core/error.hpp"

using namespace iowall;
using namespace iowall::measure;

namespace {

// A measurement made by hand: two threads, known latencies.
RunInfo synthetic() {
  RunInfo info;
  info.options.file = "/data/f";
  info.options.size = Bytes(8 << 20);
  info.options.io_size = Bytes(1 << 20);
  info.options.threads = 2;
  info.options.mode_text = "read";
  info.options.runtime = sec(10);
  info.target.size = Bytes(8 << 20);
  info.target.kind = TargetKind::existing_file;
  RepeatResult r;
  for (int i = 0; i < 2; ++i) {
    ThreadResult t;
    t.index = i;
    t.start_s = 0;
    t.end_s = 0.5 + 0.5 * i;
    for (int k = 1; k <= 4; ++k) {
      t.read.clat_ns.add(static_cast<std::uint64_t>(k) * 100'000);
      ++t.read.ops;
      t.read.bytes += 1 << 20;
    }
    r.threads.push_back(t);
  }
  r.first_done_s = 0.5;
  r.last_done_s = 1.0;
  info.repeats.push_back(r);
  CompatInfo c;
  c.compat = true;
  c.reason = "nvidia-fs is not loaded";
  info.cufile = c;
  return info;
}

std::string pointer_of(const nlohmann::json& j) {
  try {
    parse_measurement_json(j, "m.json");
  } catch (const InputError& e) {
    CHECK(e.where() == "m.json");
    return e.pointer();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("measurement JSON reads back what was written", "[measure][json]") {
  const auto j = nlohmann::json::parse(to_json(synthetic()).dump());
  const MeasurementFile f = parse_measurement_json(j, "m.json");
  REQUIRE(f.points.size() == 1);
  const MeasurementPoint& p = f.points[0];
  CHECK(f.cufile_compat_mode == true);
  CHECK(p.options.io_size == Bytes(1 << 20));
  CHECK(p.options.size == Bytes(8 << 20));
  CHECK(p.options.threads == 2);
  CHECK(p.options.runtime == sec(10));
  CHECK(p.last_done_s == 1.0);
  CHECK(p.read.io_bytes == 8u << 20);
  CHECK(p.read.ops == 8);
  CHECK(p.read.bw_bytes == 8u << 20);  // 8 MiB in 1 s
  CHECK(p.read.iops == Approx(8.0));
  CHECK(p.write.ops == 0);
  CHECK(p.read.clat.min_ns == 100'000);
  CHECK(p.read.clat.max_ns == 400'000);
  CHECK(p.read.clat.mean_ns == Approx(250'000));
  REQUIRE(p.read.clat.at(50.0));
  // Half the samples are <= 200 us; the histogram's bucket holds it within 1/64.
  CHECK(static_cast<double>(*p.read.clat.at(50.0)) == Approx(200'000).epsilon(1.0 / 64));
  CHECK(static_cast<double>(*p.read.clat.at(99.99)) == Approx(400'000).epsilon(1.0 / 64));
  CHECK_FALSE(p.read.clat.at(42.0));
  // Per-thread jobs in fio's shape.
  REQUIRE(j["jobs"].size() == 2);
  CHECK(j["jobs"][1]["read"]["runtime"] == 1000);
  CHECK(j["jobs"][0]["read"]["clat_ns"]["percentile"].contains("99.990000"));
}

TEST_CASE("malformed measurement JSON names the file and the pointer", "[measure][json]") {
  const auto good = nlohmann::json::parse(to_json(synthetic()).dump());
  auto j = good;
  j["iowall"]["repeats"][0]["read"].erase("bw_bytes");
  CHECK(pointer_of(j) == "/iowall/repeats/0/read/bw_bytes");
  j = good;
  j["iowall"]["options"]["io_size"] = "lots";
  CHECK(pointer_of(j) == "/iowall/options/io_size");
  j = good;
  j["iowall"]["repeats"][0]["write"]["clat_ns"]["percentile"]["fifty"] = 3;
  CHECK(pointer_of(j) == "/iowall/repeats/0/write/clat_ns/percentile/fifty");
  j = good;
  j["iowall"]["repeats"] = nlohmann::json::array();
  CHECK(pointer_of(j) == "/iowall/repeats");
  j = good;
  j.erase("iowall_version");
  CHECK(pointer_of(j) == "/iowall_version");
  j = good;
  j["iowall"]["repeats"][0]["last_done_s"] = "soon";
  CHECK(pointer_of(j) == "/iowall/repeats/0/last_done_s");
  j = good;
  j["iowall"]["repeats"][0]["page_cache_resident_at_start"] = 1.5;  // a share: 0 to 1
  CHECK(pointer_of(j) == "/iowall/repeats/0/page_cache_resident_at_start");
  j = good;
  j["iowall"]["repeats"][0]["page_cache_resident_at_start"] = "warm";
  CHECK(pointer_of(j) == "/iowall/repeats/0/page_cache_resident_at_start");
  j = good;  // absent (files of earlier versions) or null (a block device): unknown, not an error
  j["iowall"]["repeats"][0].erase("page_cache_resident_at_start");
  CHECK_FALSE(parse_measurement_json(j, "m.json").points.at(0).page_cache_resident_at_start);
}

TEST_CASE("an unreadable or non-JSON measurement file is an InputError", "[measure][json]") {
  testing::ScratchDir dir;
  CHECK_THROWS_WITH(read_measurement_file(dir.file("none.json")), Catch::Contains("none.json"));
  const std::string bad = dir.file("bad.json");
  std::ofstream(bad) << "{ not json";
  CHECK_THROWS_AS(read_measurement_file(bad), InputError);
  CHECK_THROWS_WITH(read_measurement_file(bad), Catch::Contains("bad.json") && Catch::Contains("malformed JSON"));
}
