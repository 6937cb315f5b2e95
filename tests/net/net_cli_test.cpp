// `iowall net` run as a program: deterministic JSON and one-line errors with exit code 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace {
struct Result {
  int code;
  std::string out, err;
};
std::string slurp(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
Result iowall(const std::string& args) {
  static int n = 0;
  const std::string base = "/tmp/iowall_net_test_" + std::to_string(getpid()) + "_" + std::to_string(n++);
  const int st = std::system((std::string(IOWALL_BINARY) + " " + args + " >" + base + ".out 2>" + base + ".err").c_str());
  Result r{WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(base + ".out"), slurp(base + ".err")};
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}
}  // namespace

TEST_CASE("net incast gives the same JSON for the same seed, and net headroom answers in JSON", "[net][cli]") {
  const std::string cmd = "net incast --senders 3 --duration '20 ms' --from '10 ms' --output-format json";
  const Result a = iowall(cmd), b = iowall(cmd);
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(nlohmann::json::parse(a.out)["flow_Gbps"].size() == 3);
  const Result h = iowall("net headroom --cable '100 m' --output-format json");
  REQUIRE(h.code == 0);
  CHECK(nlohmann::json::parse(h.out)["headroom_bytes"].get<long>() == 71632);
}

TEST_CASE("net: bad input is one line on stderr and exit code 2", "[net][cli][errors]") {
  for (const std::string bad :
       {"incast --param g=2", "incast --param xoff='32 MB'", "incast --param kmax='100 KB'", "skid --cable 100",
        "incast --param nonsense=1", "incast --param ai=5", "spread --slow 10", "incast --from '30 ms'",
        "headroom --mtu 9216"}) {
    const Result r = iowall("net " + bad);
    INFO(bad << " -> " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("iowall: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}
