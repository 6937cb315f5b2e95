// fio's --group_reporting in `iowall measure`: one job per repeat with all threads'
// totals, and fio's three latency objects (slat_ns, clat_ns, lat_ns) in every direction,
// so that a jq script written for fio reads the same meaning from both tools.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "measure/report.hpp"

using namespace iowall;
using namespace iowall::measure;

namespace {

// Two threads of a measurement made by hand: 4 and 2 reads of 1 MiB, done at 0.5 and 1 s.
RunInfo two_threads(bool group) {
  RunInfo info;
  info.options.file = "/data/f";
  info.options.threads = 2;
  info.options.group_reporting = group;
  info.target.size = Bytes(6 << 20);
  RepeatResult r;
  r.repeat = 1;
  for (int i = 0; i < 2; ++i) {
    ThreadResult t;
    t.index = i;
    t.region_bytes = i == 0 ? 4 << 20 : 2 << 20;
    t.end_s = 0.5 + 0.5 * i;
    for (int k = 1; k <= 4 - 2 * i; ++k) {
      t.read.clat_ns.add(static_cast<std::uint64_t>(k) * 100'000);
      ++t.read.ops;
      t.read.bytes += 1 << 20;
    }
    r.threads.push_back(t);
  }
  r.first_done_s = 0.5;
  r.last_done_s = 1.0;
  info.repeats.push_back(r);
  return info;
}

}  // namespace

TEST_CASE("measure --group-reporting writes one job with every thread's totals", "[measure][json][fio]") {
  const auto per_thread = nlohmann::json::parse(to_json(two_threads(false)).dump());
  const auto grouped = nlohmann::json::parse(to_json(two_threads(true)).dump());
  REQUIRE(per_thread["jobs"].size() == 2);
  REQUIRE(grouped["jobs"].size() == 1);
  const auto& read = grouped["jobs"][0]["read"];
  CHECK(read["io_bytes"] == 6u << 20);
  CHECK(read["bw_bytes"] == 6u << 20);  // 6 MiB until the slowest thread was done, at 1 s
  CHECK(read["total_ios"] == 6);
  CHECK(read["runtime"] == 1000);
  CHECK(read["clat_ns"]["N"] == 6);
  CHECK(read["lat_ns"]["N"] == 6);
  CHECK(read["lat_ns"]["mean"].get<double>() == Approx((1 + 2 + 3 + 4 + 1 + 2) * 100'000 / 6.0));
  CHECK(read["clat_ns"]["percentile"].contains("99.000000"));
  CHECK(read["slat_ns"]["N"] == 0);
  // The group is the repeat's aggregate the iowall section has always carried.
  CHECK(read["bw_bytes"] == grouped["iowall"]["repeats"][0]["read"]["bw_bytes"]);
  CHECK(grouped["iowall"]["options"]["group_reporting"] == true);
  // Without it, each thread's job has the three latency objects too.
  CHECK(per_thread["jobs"][1]["read"]["lat_ns"]["N"] == 2);
  CHECK(per_thread["jobs"][1]["read"]["slat_ns"]["N"] == 0);
  CHECK_FALSE(per_thread["jobs"][1]["read"]["lat_ns"].contains("percentile"));
}

#ifdef IOWALL_BINARY
TEST_CASE("fio's jq paths read the same meaning from fio and iowall with group reporting", "[measure][fio]") {
  if (std::system("command -v fio >/dev/null 2>&1") != 0) {
    WARN("fio is not installed: skipping");
    return;
  }
  const auto dir = std::filesystem::temp_directory_path() / ("iowall-group-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "f.bin").string(), fo = (dir / "fio.json").string(), io = (dir / "iowall.json").string();
  REQUIRE(std::system((std::string(IOWALL_BINARY) + " measure -f " + file + " -s 8M -i 1M --keep --quiet").c_str()) == 0);
  REQUIRE(std::system(("fio --name=x --filename=" + file + " --rw=read --bs=1M --size=4M --numjobs=2 --offset_increment=4M"
                       " --ioengine=psync --group_reporting --output-format=json --output=" + fo + " >/dev/null")
                          .c_str()) == 0);
  REQUIRE(std::system((std::string(IOWALL_BINARY) + " measure -f " + file +
                       " -s 8M -i 1M -w 2 --group-reporting --output-format json --output " + io + " --quiet")
                          .c_str()) == 0);
  std::ifstream fin(fo), iin(io);
  const auto f = nlohmann::json::parse(fin), w = nlohmann::json::parse(iin);
  std::filesystem::remove_all(dir);
  for (const auto* j : {&f, &w}) {
    REQUIRE((*j)["jobs"].size() == 1);
    const auto& read = (*j)["jobs"][0]["read"];
    CHECK(read["io_bytes"] == 8u << 20);  // both threads' bytes in the one job
    CHECK(read["total_ios"] == 8);
    CHECK(read["bw_bytes"].get<double>() > 0);
    CHECK(read["lat_ns"]["mean"].get<double>() > 0);
    CHECK(read["lat_ns"]["N"] == 8);
    CHECK(read["clat_ns"]["N"] == 8);
    CHECK(read["clat_ns"]["percentile"]["99.000000"].get<double>() >= read["clat_ns"]["min"].get<double>());
    for (const char* key : {"slat_ns", "clat_ns", "lat_ns"})
      for (const char* field : {"min", "max", "mean", "stddev", "N"}) CHECK(read[key].contains(field));
  }
  // fio's psync: no separate submission latency; the completion latency is the whole.
  CHECK(f["jobs"][0]["read"]["slat_ns"]["N"] == 0);
}
#endif
