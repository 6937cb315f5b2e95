// Bad input to `iowall report` and --report: one line naming the file, JSON pointer or
// option, exit code 2, and no report file (nor temporary file) left behind.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/report/report_test_util.hpp"

using namespace iowall::testing;

namespace {

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// A run result made once per test process: the tests below alter copies of it.
const std::string& good_result() {
  static const std::string path = [] {
    const std::string dir = scratch_dir("good");
    write_text(dir + "/tiny.json", tiny_scenario());
    const CliResult r = run_iowall("run " + dir + "/tiny.json --output-format json --output " + dir + "/run.json");
    REQUIRE(r.code == 0);
    return dir + "/run.json";
  }();
  return path;
}

}  // namespace

TEST_CASE("report refuses bad input with one line and exit code 2", "[report][errors]") {
  const std::string dir = scratch_dir("bad");
  nlohmann::json result = nlohmann::json::parse(slurp(good_result()));
  nlohmann::json other_version = result;
  other_version["iowall_result"]["version"] = 99;
  write_text(dir + "/v99.json", other_version.dump());
  write_text(dir + "/foreign.json", R"({"jobs": [{"jobname": "fio"}]})");
  write_text(dir + "/broken.json", "{\"iowall_result\": {\"kind\": \"run\",\n \"version\": 1,,}");
  nlohmann::json unknown_kind = result;
  unknown_kind["iowall_result"]["kind"] = "horoscope";
  write_text(dir + "/kind.json", unknown_kind.dump());

  struct Case {
    std::string args, expect;
  };
  const std::string out = " -o " + dir + "/report.html";
  const std::vector<Case> cases = {
      {"report " + dir + "/v99.json" + out,
       dir + "/v99.json: /iowall_result/version: result format version 99 is not the one this iowall reads (1)"},
      {"report " + dir + "/foreign.json" + out, dir + "/foreign.json: /iowall_result: not an iowall result"},
      {"report " + dir + "/broken.json" + out, dir + "/broken.json: line 2, column "},
      {"report " + dir + "/kind.json" + out, "/iowall_result/kind: \"horoscope\" is not a kind of result"},
      {"report " + dir + "/missing.json" + out, dir + "/missing.json: no such file"},
      {"report" + out, "RESULT: no result files given"},
      {"report " + good_result() + " -o " + dir + "/no/such/dir/report.html",
       "--output: cannot write " + dir + "/no/such/dir/report.html: directory " + dir + "/no/such/dir does not exist"},
      {"run " + dir + "/../nothing.json --report " + dir + "/nope/r.html", "--report: cannot write"},
      {"plan checkpoint scenarios/checkpoint-1024-h100-50tb.json --report " + dir + "/nope/r.html",
       "--report: cannot write " + dir + "/nope/r.html: directory " + dir + "/nope does not exist"},
      // A good file among bad ones still fails as a whole.
      {"report " + good_result() + " " + dir + "/v99.json" + out, "/iowall_result/version"},
  };
  for (const Case& c : cases) {
    const CliResult r = run_iowall(c.args);
    INFO(c.args << "\n" << r.err);
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.rfind("iowall: ", 0) == 0);
    CHECK(r.err.find(c.expect) != std::string::npos);
  }
  // Nothing was written: not the report, not a temporary file beside it.
  CHECK_FALSE(std::filesystem::exists(dir + "/report.html"));
  CHECK(files_in(dir) == 4);
  std::filesystem::remove_all(dir);
}

TEST_CASE("report without gnuplot says so in the page, keeps the tables, exits 0", "[report]") {
  const std::string dir = scratch_dir("nognuplot");
  // The binary is started by its full path; without PATH, gnuplot cannot be found.
  const CliResult r = run_iowall("report " + good_result() + " -o " + dir + "/report.html", "env PATH=/nonexistent ");
  INFO(r.output());
  REQUIRE(r.code == 0);
  const std::string html = slurp(dir + "/report.html");
  CHECK(html.find("gnuplot is not installed, so this report has no charts") != std::string::npos);
  CHECK(html.find("<svg") == std::string::npos);
  CHECK(count_of(html, "class=\"nochart\"") == 3);
  CHECK(html.find("<h3>Results per data path</h3>") != std::string::npos);
  CHECK(html.find("gpu_direct") != std::string::npos);
  CHECK(files_in(dir) == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a report over an existing file replaces it whole or leaves it untouched", "[report]") {
  const std::string dir = scratch_dir("atomic");
  write_text(dir + "/report.html", "old report");
  write_text(dir + "/v99.json", R"({"iowall_result": {"kind": "run", "version": 2}})");
  const CliResult bad = run_iowall("report " + dir + "/v99.json -o " + dir + "/report.html");
  CHECK(bad.code == 2);
  CHECK(slurp(dir + "/report.html") == "old report");
  const CliResult good = run_iowall("report " + good_result() + " -o " + dir + "/report.html");
  CHECK(good.code == 0);
  CHECK(slurp(dir + "/report.html").rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(files_in(dir) == 2);  // no temporary file left beside it
  std::filesystem::remove_all(dir);
}
