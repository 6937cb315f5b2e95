// `iowall report` and --report on run, sweep and plan checkpoint: the page holds the
// tables, the charts as inline SVG, units, fidelity and limiters, and nothing external.
#include <catch2/catch.hpp>

#include "tests/report/report_test_util.hpp"

using namespace iowall::testing;

namespace {

// Nothing in a self-contained page may be fetched: no src/href to other documents.
void check_self_contained(const std::string& html) {
  CHECK(html.find("src=\"http") == std::string::npos);
  CHECK(html.find("href=\"http") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("<script src") == std::string::npos);
  CHECK(html.find("@import") == std::string::npos);
  CHECK(html.find("<?xml") == std::string::npos);  // gnuplot's header is stripped when inlined
}

}  // namespace

TEST_CASE("report of a run result: tables, charts, fidelity and limiters", "[report]") {
  const std::string dir = scratch_dir("run");
  write_text(dir + "/tiny.json", tiny_scenario());
  const CliResult run = run_iowall("run " + dir + "/tiny.json --output-format json --output " + dir + "/run.json");
  REQUIRE(run.code == 0);
  const CliResult rep = run_iowall("report " + dir + "/run.json -o " + dir + "/report.html");
  INFO(rep.output());
  REQUIRE(rep.code == 0);
  const std::string html = slurp(dir + "/report.html");
  check_self_contained(html);
  CHECK(html.find("<h2>Run: tiny-report</h2>") != std::string::npos);
  CHECK(html.find("workstation-gen5") != std::string::npos);
  CHECK(html.find("chunk (discrete events per transfer chunk") != std::string::npos);
  CHECK(html.find("throughput (GB/s)") != std::string::npos);
  CHECK(html.find("% busy)") != std::string::npos);  // a limiter with its utilization per path
  CHECK(html.find("gpu_direct") != std::string::npos);
  CHECK(html.find("cpu_gpu") != std::string::npos);
  // Throughput, CPU cores and link utilization charts, each an inline SVG with ids made unique.
  CHECK(count_of(html, "<figure class=\"chart\"") == 3);
  CHECK(count_of(html, "<svg") == 3);
  CHECK(html.find("id=\"c1-gnuplot_canvas\"") != std::string::npos);
  CHECK(html.find("id=\"c3-gnuplot_canvas\"") != std::string::npos);
  CHECK(html.find("Links on the critical route") != std::string::npos);

  // --report on run writes the same kind of page, and the same inputs give the same bytes.
  const CliResult direct = run_iowall("run " + dir + "/tiny.json --report " + dir + "/direct.html");
  REQUIRE(direct.code == 0);
  const CliResult again = run_iowall("run " + dir + "/tiny.json --report " + dir + "/again.html");
  REQUIRE(again.code == 0);
  const std::string a = slurp(dir + "/direct.html");
  CHECK(a.find("<h2>Run: tiny-report</h2>") != std::string::npos);
  CHECK(count_of(a, "<figure class=\"chart\"") == 3);
  CHECK(a == slurp(dir + "/again.html"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("report of a sweep: throughput, latency and CPU against I/O size per path", "[report]") {
  const std::string dir = scratch_dir("sweep");
  write_text(dir + "/tiny.json", tiny_scenario());
  const CliResult sweep = run_iowall("sweep " + dir + "/tiny.json --axis '/workload/io_size=256 KiB,1 MiB,4 MiB' "
                                     "--output-format json --output " + dir + "/sweep.json --report " + dir + "/direct.html");
  INFO(sweep.output());
  REQUIRE(sweep.code == 0);
  const CliResult rep = run_iowall("report " + dir + "/sweep.json -o " + dir + "/report.html");
  REQUIRE(rep.code == 0);
  const std::string html = slurp(dir + "/report.html");
  check_self_contained(html);
  CHECK(html.find("<h2>Sweep: tiny-report</h2>") != std::string::npos);
  CHECK(html.find("I/O size (KiB)") != std::string::npos);
  CHECK(html.find("p99 latency per I/O") != std::string::npos);
  CHECK(html.find("CPU cores busy (cores)") != std::string::npos);
  CHECK(count_of(html, "<figure class=\"chart\"") == 3);
  CHECK(count_of(html, "/workload/io_size=") >= 6);  // a table row per point and path
  // The --report page of the sweep itself is the same apart from the name of the source.
  const std::string direct = slurp(dir + "/direct.html");
  CHECK(count_of(direct, "<figure class=\"chart\"") == 3);
  std::filesystem::remove_all(dir);
}

TEST_CASE("report of a checkpoint plan: overhead vs storage bandwidth for GDS and bounce", "[report][plan]") {
  const std::string dir = scratch_dir("plan");
  const CliResult plan = run_iowall("plan checkpoint scenarios/checkpoint-1024-h100-50tb.json --output-format json "
                                    "--output " + dir + "/plan.json --report " + dir + "/direct.html");
  INFO(plan.output());
  REQUIRE(plan.code == 0);
  const CliResult rep = run_iowall("report " + dir + "/plan.json -o " + dir + "/report.html");
  REQUIRE(rep.code == 0);
  const std::string html = slurp(dir + "/report.html");
  check_self_contained(html);
  CHECK(html.find("<h2>Checkpoint plan: checkpoint-1024-h100-50tb</h2>") != std::string::npos);
  CHECK(html.find("analytical (closed form)") != std::string::npos);
  CHECK(html.find("storage write bandwidth (GB/s") != std::string::npos);
  CHECK(html.find("overhead (% of wall time lost)") != std::string::npos);
  CHECK(html.find("GDS (storage to GPU memory directly)") != std::string::npos);
  CHECK(html.find("bounce (via host memory)") != std::string::npos);
  CHECK(html.find("limited by") != std::string::npos);
  // The curve is the whole overhead (saves, restores and rework after failures), and says so.
  CHECK(html.find("Total overhead (% of wall time lost to saves, restores and rework") != std::string::npos);
  CHECK(html.find("Checkpoint overhead") == std::string::npos);
  CHECK(count_of(html, "<figure class=\"chart\"") == 1);
  CHECK(slurp(dir + "/direct.html").find("<figure class=\"chart\"") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("one report from several results keeps a section per result", "[report]") {
  const std::string dir = scratch_dir("many");
  write_text(dir + "/tiny.json", tiny_scenario());
  REQUIRE(run_iowall("run " + dir + "/tiny.json --output-format json --output " + dir + "/run.json").code == 0);
  REQUIRE(run_iowall("plan checkpoint scenarios/checkpoint-1024-h100-50tb.json --output-format json --output " + dir +
                     "/plan.json").code == 0);
  const CliResult rep = run_iowall("report " + dir + "/run.json " + dir + "/plan.json -o " + dir + "/r.html");
  REQUIRE(rep.code == 0);
  const std::string html = slurp(dir + "/r.html");
  CHECK(html.find("<h2>Run: tiny-report</h2>") < html.find("<h2>Checkpoint plan:"));
  CHECK(html.find("<title>iowall report: 2 results</title>") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("validate --report FILE.html writes the HTML report and the JSON reads back", "[report][validate]") {
  const std::string dir = scratch_dir("validate");
  const std::string m = "reports/calibration/cpu-machine";
  const CliResult v = run_iowall("validate " + m + "/profile.json " + m + "/sweep/cpu_only-*-qd1-t*.json --fit-subset "
                                 "threads=1 --report " + dir + "/v.html --output-format json --output " + dir + "/v.json");
  INFO(v.output());
  REQUIRE(v.code == 0);
  const std::string html = slurp(dir + "/v.html");
  CHECK(html.find("<h2>Validation: ") != std::string::npos);
  CHECK(html.find("measured min - max (GB/s)") != std::string::npos);
  CHECK(count_of(html, "<figure class=\"chart\"") == 1);
  CHECK_FALSE(std::filesystem::exists(dir + "/v.html/validation.md"));
  // The JSON it wrote is a result `iowall report` reads.
  const CliResult rep = run_iowall("report " + dir + "/v.json -o " + dir + "/r.html");
  CHECK(rep.code == 0);
  std::filesystem::remove_all(dir);
}
