// `iowall net` run as a program: deterministic JSON and one-line errors with exit code 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_iowall.hpp"

namespace {
using Result = iowall::testing::CliResult;
Result cli(const std::string& args) { return iowall::testing::run_iowall(args); }
}  // namespace

TEST_CASE("net incast gives the same JSON for the same seed, and net headroom answers in JSON", "[net][cli]") {
  const std::string cmd = "net incast --senders 3 --duration '20 ms' --from '10 ms' --output-format json";
  const Result a = cli(cmd), b = cli(cmd);
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(nlohmann::json::parse(a.out)["flow_Gbps"].size() == 3);
  const Result h = cli("net headroom --cable '100 m' --output-format json");
  REQUIRE(h.code == 0);
  CHECK(nlohmann::json::parse(h.out)["headroom_bytes"].get<long>() == 71632);
}

TEST_CASE("net: bad input is one line on stderr and exit code 2", "[net][cli][errors]") {
  for (const std::string bad :
       {"incast --param g=2", "incast --param xoff='32 MB'", "incast --param kmax='100 KB'", "skid --cable 100",
        "incast --param nonsense=1", "incast --param ai=5", "spread --slow 10", "incast --from '30 ms'",
        "headroom --mtu 9216"}) {
    const Result r = cli("net " + bad);
    INFO(bad << " -> " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("iowall: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}
