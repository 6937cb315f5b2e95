// `iowall rdma` run as a program: JSON answers and one-line errors with exit code 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_iowall.hpp"

namespace {
using Result = iowall::testing::CliResult;
Result cli(const std::string& args) { return iowall::testing::run_iowall(args); }
}  // namespace

TEST_CASE("rdma reg answers in JSON", "[rdma][cli]") {
  const Result r = cli("rdma reg --size '1 GB' --memory host --io-size '1 MB' --link '100 Gb/s' --per-io "
                          "--per-page '1 us' --output-format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["transfer_us"].get<double>() == Approx(80));
  CHECK(j["efficiency_ratio"].get<double>() == Approx(0.23).margin(0.01));
  CHECK(j["buffer_pages"].get<long>() == 244141);
}

TEST_CASE("rdma: bad input is one line on stderr and exit code 2", "[rdma][cli][errors]") {
  for (const std::string bad :
       {"reg --size '3 TiB'", "reg --memory gpu --size '81 GB'", "reg --per-page '0.39'", "reg --link 100",
        "reg --size '1 MiB' --io-size '2 MiB'", "reg --per-io --persistent", "mtt --rounds 1",
        "mtt --miss '1 parsec'", "mtt --entries 0", "crossover --buffers '1 MB,x'"}) {
    const Result r = cli("rdma " + bad);
    INFO(bad << " -> " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("iowall: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}
