// The real executable: bad input is one line on stderr and exit code 2.
#include <catch2/catch.hpp>

#include "tests/support/run_iowall.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "measure_test_util.hpp"

#ifdef IOWALL_BINARY
namespace {
using Result = iowall::testing::CliResult;
long iowall_test_lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }
// Runs `iowall measure <args>`; stdout and stderr together in output().
Result run(const std::string& args) { return iowall::testing::run_iowall("measure " + args); }
}  // namespace

TEST_CASE("iowall measure exits 2 with one line for bad input", "[measure][cli]") {
  iowall::measure::testing::ScratchDir dir;
  for (const std::string& args : {"-f " + dir.path() + " -s 1M", "-f " + dir.file("x") + " -s 1M -i '3000 B'",
                                 "-f " + dir.file("x") + " -s 1M --engine io_uring --qd 0",
                                 "-f " + dir.file("x") + " -s 1M -x 42", "-f " + dir.file("x"),
                                 "-f " + dir.file("x") + " -s 1M -I write --fsync 0",
                                 "-f " + dir.file("x") + " -s 1M -I read --end-fsync",
                                 "-f " + dir.file("x") + " -s 1M -I write -x gpu_direct --sync",
                                 std::string("--copy d2h"), std::string("--copy cpu_pass -s 1M --host-memory pinned"),
                                 std::string("-s 1M")}) {
    INFO(args);
    const Result r = run(args);
    CHECK(r.code == 2);
    CHECK(r.output().rfind("iowall: ", 0) == 0);
    CHECK(iowall_test_lines(r.output()) == 1);
  }
  CHECK(dir.entries().empty());
}

TEST_CASE("iowall measure prints gdsio's summary line", "[measure][cli]") {
  iowall::measure::testing::ScratchDir dir;
  const Result r = run("-f " + dir.file("s.dat") + " -s 1M -i 256K -w 2 -x cpu_cached");
  CHECK(r.code == 0);
  CHECK(r.output().rfind("IoType: READ XferType: CPU_CACHED Threads: 2 DataSetSize: 1024/1024(KiB) IOSize: 256(KiB) "
                       "Throughput: ", 0) == 0);
  CHECK(r.output().find("ops: 4 total_time") != std::string::npos);
}
#endif
