// `iowall plan checkpoint` run as a program: exit codes, one-line errors, JSON.
#include <catch2/catch.hpp>

#include "tests/support/run_iowall.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace {
using Result = iowall::testing::CliResult;
using iowall::testing::slurp;
Result cli(const std::string& args) { return iowall::testing::run_iowall(args); }
const std::string kBase = "plan checkpoint --params 405e9 --gpus 1024 --tp 8 --pp 16 --zero 1 ";
}  // namespace

TEST_CASE("plan checkpoint answers in a table and in JSON", "[plan][cli]") {
  const Result r = cli(kBase + "--storage-bw '200 GB/s' --output-format normal,json");
  REQUIRE(r.code == 0);
  CHECK(r.out.find("availability") != std::string::npos);
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find("\n{") + 1));
  CHECK(j["state"]["total_bytes"].get<double>() == Approx(405e9 * 14));
  CHECK(j["save"]["last_done_s"].get<double>() > 0);
}

TEST_CASE("plan checkpoint: bad input is one line on stderr and exit code 2", "[plan][cli][errors]") {
  for (const std::string bad : {"--gpus 1000", "--gpus 1024 --mttf '0 h'", "--gpus 1024 --storage-bw 200",
                                "--gpus 1024 --capacity '1 TB'", "--gpus 1024 --interval 7200"}) {
    const Result r = cli("plan checkpoint --params 405e9 --tp 8 --pp 16 " + bad);
    INFO(bad << " -> " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("iowall: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("plan checkpoint over a cluster answers the inverse query in servers, drives and ports", "[plan][cli][cluster]") {
  // clusters/h100-100k-rail.json: servers of min(4 x 50, 24 x 6.0) = 144 GB/s write, 24
  // drives and 4 NIC ports each, 8 to a storage leaf. Whatever bandwidth the target needs,
  // the parts are whole servers: ceil(units), 24 and 4 per server, ceil(servers / 8) leaves.
  const Result r = cli("plan checkpoint " + std::string(IOWALL_SOURCE_DIR) +
                       "/scenarios/checkpoint-100k.json --target-overhead 25% --output-format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out)["inverse_bandwidth"];
  const int servers = static_cast<int>(std::ceil(j["bandwidth_Bps"].get<double>() / 144e9));
  CHECK(j["units"].get<double>() == servers);
  CHECK(j["purchase"]["servers"] == servers);
  CHECK(j["purchase"]["drives"] == 24 * servers);
  CHECK(j["purchase"]["nic_ports"] == 4 * servers);
  CHECK(j["purchase"]["storage_leaves"] == (servers + 7) / 8);
}

TEST_CASE("plan checkpoint --restore read-once-broadcast: the header says so, the restore names its broadcast",
          "[plan][cli][restore]") {
  const Result r = cli(kBase + "--storage-bw '200 GB/s' --restore read-once-broadcast --output-format normal,json");
  REQUIRE(r.code == 0);
  CHECK(r.out.find("restore read-once-broadcast)") != std::string::npos);
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find("\n{") + 1));
  CHECK(j["settings"]["restore"] == "read-once-broadcast");
  CHECK(j["restore"]["bounds_s"].contains("broadcast to the data-parallel replicas (compute fabric)"));
  CHECK(j["restore"]["bytes"].get<double>() == Approx(405e9 * 14));  // each byte once
}
