// The real executable: bad input is one line on stderr and exit code 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "measure_test_util.hpp"

#ifdef IOWALL_BINARY
namespace {
struct Result {
  int code = -1;
  std::string output;
};
Result run(const std::string& args) {
  Result r;
  const std::string cmd = std::string(IOWALL_BINARY) + " measure " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) r.output += buf;
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}
}  // namespace

TEST_CASE("iowall measure exits 2 with one line for bad input", "[measure][cli]") {
  iowall::measure::testing::ScratchDir dir;
  for (const std::string args : {"-f " + dir.path() + " -s 1M", "-f " + dir.file("x") + " -s 1M -i '3000 B'",
                                 "-f " + dir.file("x") + " -s 1M --engine io_uring --qd 0",
                                 "-f " + dir.file("x") + " -s 1M -x 42", "-f " + dir.file("x")}) {
    INFO(args);
    const Result r = run(args);
    CHECK(r.code == 2);
    CHECK(r.output.rfind("iowall: ", 0) == 0);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
  CHECK(dir.entries().empty());
}

TEST_CASE("iowall measure prints gdsio's summary line", "[measure][cli]") {
  iowall::measure::testing::ScratchDir dir;
  const Result r = run("-f " + dir.file("s.dat") + " -s 1M -i 256K -w 2 -x cpu_cached");
  CHECK(r.code == 0);
  CHECK(r.output.rfind("IoType: READ XferType: CPU_CACHED Threads: 2 DataSetSize: 1024/1024(KiB) IOSize: 256(KiB) "
                       "Throughput: ", 0) == 0);
  CHECK(r.output.find("ops: 4 total_time") != std::string::npos);
}
#endif
