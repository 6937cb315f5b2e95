// The accuracy check: figures carry units of the metric's kind, corpus files are refused
// with the file and pointer of what is missing, one simulation serves the cases that share
// a reproduction, the error is simulated / published - 1, and the ratchet reports exactly
// what got worse than the baseline.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "sim/check/check.hpp"
#include "sim/check/corpus.hpp"
#include "sim/config/scenario.hpp"
#include "sim/core/error.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/run_iowall.hpp"

namespace {

using iowall::InputError;
using iowall::Json;
using namespace iowall::check;
namespace fs = std::filesystem;

// A valid one-case source whose scenario is the shipped DGX-2 GDS case.
Json good_source() {
  return Json::parse(R"({
    "source": {"title": "A guide", "publisher": "A vendor", "year": 2021, "where": "table 1"},
    "conditions": {"hardware": "a node", "software": "gdsio", "assumed": ["nothing"]},
    "cases": [{"id": "a", "figure": "1 MiB reads", "published": "6.5 GiB/s", "metric": "throughput",
               "scenario": "validation/scenarios/dgx2-gds-seq1m.json", "path": "gpu_direct"}]})");
}

std::string error_of(const Json& doc) {
  try {
    parse_source(doc.dump(), "v.json", "v");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("figures parse with the unit of their kind", "[check]") {
  CHECK(parse_figure("6.5 GiB/s", Dimension::bandwidth, "f", "/p").si == Approx(6.5 * 1073741824.0));
  CHECK(parse_figure("55.6 GB/s", Dimension::bandwidth, "f", "/p").si == Approx(55.6e9));
  CHECK(parse_figure("24468 IOPS", Dimension::rate, "f", "/p").si == Approx(24468));
  CHECK(parse_figure("1.52 MIOPS", Dimension::rate, "f", "/p").si == Approx(1.52e6));
  CHECK(parse_figure("850 kIOPS", Dimension::rate, "f", "/p").si == Approx(850e3));
  CHECK(parse_figure("3.3 M/s", Dimension::rate, "f", "/p").si == Approx(3.3e6));
  CHECK(parse_figure("163.48 us", Dimension::time, "f", "/p").si == Approx(163.48e-6));
  CHECK(parse_figure("5.29 TB", Dimension::bytes, "f", "/p").si == Approx(5.29e12));
  CHECK(parse_figure("0.8 cores", Dimension::count, "f", "/p").si == Approx(0.8));
  CHECK_THROWS_WITH(parse_figure("24468", Dimension::rate, "f.json", "/cases/0/published"),
                    Catch::Contains("f.json: /cases/0/published") && Catch::Contains("has no unit"));
  CHECK_THROWS_WITH(parse_figure("163 us", Dimension::bandwidth, "f", "/p"), Catch::Contains("is not a bandwidth"));
  CHECK_THROWS_WITH(parse_figure("-3 GB/s", Dimension::bandwidth, "f", "/p"), Catch::Contains("not positive"));
  CHECK_THROWS_WITH(parse_figure("nan GB/s", Dimension::bandwidth, "f", "/p"), Catch::Contains("not a number"));
}

TEST_CASE("a corpus file names the file and pointer of what is wrong", "[check]") {
  CHECK(error_of(good_source()) == "no error");
  Json d = good_source();
  d.erase("source");
  CHECK(error_of(d) == "v.json: /: \"source\" is missing");
  d = good_source();
  d["source"].erase("year");
  CHECK_THAT(error_of(d), Catch::StartsWith("v.json: /source/year:"));
  d = good_source();
  d["conditions"].erase("hardware");
  CHECK(error_of(d) == "v.json: /conditions: \"hardware\" is missing");
  d = good_source();
  d["cases"][0]["published"] = "6.5";
  CHECK_THAT(error_of(d), Catch::StartsWith("v.json: /cases/0/published:") && Catch::Contains("has no unit"));
  d = good_source();
  d["cases"][0]["scenario"] = "validation/scenarios/none.json";
  CHECK_THAT(error_of(d), Catch::StartsWith("v.json: /cases/0/scenario:") && Catch::Contains("is not a file"));
  d = good_source();
  d["cases"][0]["metric"] = "speed";
  CHECK_THAT(error_of(d), Catch::StartsWith("v.json: /cases/0/metric: unknown metric"));
  d = good_source();
  d["cases"][0]["metric"] = "checkpoint_bytes";
  CHECK_THAT(error_of(d), Catch::Contains("is read from a plan run"));
  d = good_source();
  d["cases"].push_back(d["cases"][0]);
  CHECK_THAT(error_of(d), Catch::StartsWith("v.json: /cases/1/id:") && Catch::Contains("used by an earlier case"));
  d = good_source();
  d["cases"][0]["colour"] = "red";
  CHECK_THAT(error_of(d), Catch::StartsWith("v.json: /cases/0/colour: unknown key"));
  d = good_source();
  d["cases"][0].erase("path");
  CHECK(error_of(d) == "v.json: /cases/0: \"path\" is missing");
  d = good_source();
  d["cases"] = Json::array();
  CHECK_THAT(error_of(d), Catch::StartsWith("v.json: /cases:"));
  d = good_source();
  d["cases"][0]["set"] = {{"workload", 1}};
  CHECK_THAT(error_of(d), Catch::Contains("is not a JSON pointer"));
}

TEST_CASE("cases sharing a scenario share one run, and the error is simulated over published", "[check]") {
  Corpus corpus;
  Json doc = good_source();
  doc["cases"].push_back(doc["cases"][0]);
  doc["cases"][1]["id"] = "b";
  doc["cases"][1]["metric"] = "latency_mean";
  doc["cases"][1]["published"] = "1 ms";
  corpus.sources.push_back(parse_source(doc.dump(), "v.json", "v"));
  const CheckResult r = run_check(corpus, 2);
  REQUIRE(r.points.size() == 2);
  // The same scenario run directly gives the simulated values.
  const iowall::RunResult run = iowall::run_scenario(iowall::load_scenario("validation/scenarios/dgx2-gds-seq1m.json"));
  const iowall::PathMetrics& m = run.path("gpu_direct")->metrics;
  CHECK(r.points[0].simulated.si == Approx(m.throughput_GBps * 1e9));
  CHECK(r.points[0].error == Approx(r.points[0].simulated.si / (6.5 * 1073741824.0) - 1));
  CHECK(r.points[1].simulated.si == Approx(m.latency_mean_us * 1e-6));
  CHECK(r.points[0].limited_by.find('%') != std::string::npos);
  // Summary: two points, the median of their |errors|.
  const double a = std::abs(r.points[0].error), b = std::abs(r.points[1].error);
  CHECK(r.median_abs_error == Approx((a + b) / 2));
  CHECK(r.max_abs_error == Approx(std::max(a, b)));
  // The JSON reads back to the same result.
  const CheckResult back = check_from_json(check_json(r), "r.json");
  REQUIRE(back.points.size() == 2);
  CHECK(back.points[1].error == Approx(r.points[1].error).margin(1e-4));
  CHECK(back.median_abs_error == Approx(r.median_abs_error).margin(1e-4));
  CHECK(back.sources[0].points == 2);
  // Values keep six significant digits whatever their magnitude: a microsecond latency and
  // a nanosecond one read back within a millionth, not rounded to whole microseconds.
  CheckResult tiny = r;
  tiny.points[1].published.si = 12.1e-6;
  tiny.points[1].simulated.si = 546.2e-9;
  const CheckResult tiny_back = check_from_json(check_json(tiny), "r.json");
  CHECK(tiny_back.points[1].published.si == Approx(12.1e-6).epsilon(1e-6));
  CHECK(tiny_back.points[1].simulated.si == Approx(546.2e-9).epsilon(1e-6));
}

TEST_CASE("the ratchet names what got worse than the baseline by more than the slack", "[check]") {
  CheckResult base;
  base.points = {PointResult{"s", "a", "", "", "", "", {}, {}, 0.10, ""}, PointResult{"s", "b", "", "", "", "", {}, {}, -0.05, ""}};
  base.sources = {SourceSummary{"s", "", "", "", 2021, 2, 0.075, 0.10}};
  base.median_abs_error = 0.075;
  CheckResult now = base;
  CHECK(regressions(now, base, 0.02).empty());
  now.points[1].error = 0.069;  // |-5%| -> |6.9%|: within 2 points
  CHECK(regressions(now, base, 0.02).empty());
  now.points[1].error = -0.08;  // 3 points worse
  auto w = regressions(now, base, 0.02);
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::StartsWith("s/b: error -8.0% is worse than the baseline's -5.0%"));
  now.median_abs_error = 0.10;
  now.sources[0].median_abs_error = 0.10;
  CHECK(regressions(now, base, 0.02).size() == 3);
  // A point the baseline does not hold is not compared.
  now = base;
  now.points.push_back(PointResult{"s", "c", "", "", "", "", {}, {}, 0.9, ""});
  CHECK(regressions(now, base, 0.02).empty());
}

TEST_CASE("iowall check refuses a bad corpus with one line, and fails a worse baseline with exit 1", "[check][cli]") {
  const fs::path top = fs::temp_directory_path() / ("iowall-check-" + std::to_string(::getpid()));
  const fs::path dir = top / "corpus", out = top / "out";  // results outside the corpus folder
  fs::create_directories(dir);
  fs::create_directories(out);
  Json bad = good_source();
  bad["cases"][0]["published"] = "fast";
  std::ofstream(dir / "bad.json") << bad.dump();
  auto r = iowall::testing::run_iowall("check --corpus " + dir.string());
  CHECK(r.code == 2);
  CHECK(r.err.find((dir / "bad.json").string() + ": /cases/0/published:") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  fs::remove(dir / "bad.json");
  std::ofstream(dir / "good.json") << good_source().dump();
  r = iowall::testing::run_iowall("check --corpus " + dir.string() + " --output-format json --output " +
                                  (out / "now.json").string());
  REQUIRE(r.code == 0);
  // A baseline whose point was exact: today's error is worse by more than 2 points.
  Json base = Json::parse(iowall::testing::slurp((out / "now.json").string()));
  const double e = base["cases"][0]["error"].get<double>();
  base["cases"][0]["error"] = 0.0;
  std::ofstream(out / "base.json") << base.dump();
  r = iowall::testing::run_iowall("check --corpus " + dir.string() + " --baseline " + (out / "base.json").string());
  CHECK(r.code == (std::abs(e) > 0.02 ? 1 : 0));
  if (std::abs(e) > 0.02) CHECK(r.err.find("good/a: error") != std::string::npos);
  r = iowall::testing::run_iowall("check --corpus " + dir.string() + " --source nothing");
  CHECK(r.code == 2);
  CHECK(r.err.find("--source") != std::string::npos);
  fs::remove_all(top);
}
