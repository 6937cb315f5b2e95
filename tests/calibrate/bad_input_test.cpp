// calibrate and validate on bad input: one line on stderr and exit code 2.
#include <catch2/catch.hpp>

#include "tests/support/run_iowall.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#ifdef IOWALL_BINARY
namespace {

using Result = iowall::testing::CliResult;
long iowall_test_lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }
// Runs `iowall <args>`; stdout and stderr together in output().
Result run(const std::string& args) { return iowall::testing::run_iowall("" + args); }

// A scratch folder with a real measurement file and broken variants of it.
struct Files {
  std::filesystem::path dir;
  Files() {
    dir = std::filesystem::temp_directory_path() / ("iowall-calib-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ifstream in(IOWALL_SOURCE_DIR "/reports/calibration/cpu-machine/sweep/cpu_only-4K-qd1-t1-r1.json");
    const nlohmann::json good = nlohmann::json::parse(in);
    write("good.json", good);
    nlohmann::json old = good;
    old["iowall_version"] = "0.0.1";
    write("old.json", old);
    // What fio writes: no iowall_version, no iowall section.
    write("fio.json", {{"fio version", "fio-3.33"}, {"jobs", nlohmann::json::array()}});
    std::ofstream(dir / "garbage.json") << "not json {";
  }
  ~Files() { std::filesystem::remove_all(dir); }
  void write(const char* name, const nlohmann::json& j) { std::ofstream(dir / name) << j.dump(); }
  std::string operator()(const char* name) const { return (dir / name).string(); }
};

void check_one_line_exit_2(const std::string& args) {
  INFO(args);
  const Result r = run(args);
  INFO(r.output());
  CHECK(r.code == 2);
  CHECK(r.output().rfind("iowall: ", 0) == 0);
  CHECK(iowall_test_lines(r.output()) == 1);
}

}  // namespace

TEST_CASE("iowall calibrate exits 2 with one line for bad input", "[calibrate][cli]") {
  Files f;
  const std::string out = " -o " + f("profile.json");
  check_one_line_exit_2("calibrate" + out);                                      // no measurement file
  check_one_line_exit_2("calibrate " + f("missing.json") + out);                 // missing file
  check_one_line_exit_2("calibrate " + f("fio.json") + out);                     // another tool's JSON
  check_one_line_exit_2("calibrate " + f("old.json") + out);                     // another version
  check_one_line_exit_2("calibrate " + f("garbage.json") + out);                 // not JSON
  check_one_line_exit_2("calibrate " + f.dir.string() + out);                    // a directory
  check_one_line_exit_2("calibrate " + f("good.json") + out + " --fit-subset 'qd=lots'");
  check_one_line_exit_2("calibrate " + f("good.json") + out + " --fit-subset qd=64");  // selects nothing
  CHECK_FALSE(std::filesystem::exists(f("profile.json")));
}

TEST_CASE("iowall validate exits 2 with one line for bad input", "[calibrate][cli]") {
  Files f;
  const Result made = run("calibrate " + f("good.json") + " -o " + f("profile.json") +
                          " --topology " IOWALL_SOURCE_DIR "/topologies/cpu-machine.json --quiet");
  REQUIRE(made.code == 0);
  check_one_line_exit_2("validate " + f("profile.json"));                        // no measurement file
  check_one_line_exit_2("validate " + f("missing.json") + " " + f("good.json"));  // missing profile
  check_one_line_exit_2("validate " + f("good.json") + " " + f("good.json"));     // not a profile
  check_one_line_exit_2("validate " + f("profile.json") + " " + f("fio.json"));
  check_one_line_exit_2("validate " + f("profile.json") + " " + f("old.json"));
  check_one_line_exit_2("validate " + f("profile.json") + " " + f("good.json") + " --fit-subset all");
}
#endif
