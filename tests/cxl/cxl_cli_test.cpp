// `iowall cxl` run as a program: deterministic JSON, the tier comparison's shape,
// and one-line errors with exit code 2 naming the option or the JSON pointer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_iowall.hpp"
#include "tests/support/sanitized.hpp"

namespace {
using Result = iowall::testing::CliResult;
Result cli(const std::string& args) { return iowall::testing::run_iowall(args); }

// A topology file under /tmp with one value changed; removed by the caller.
std::string broken_topology(const std::string& name, const std::string& from, const std::string& to) {
  std::string text = iowall::testing::slurp(std::string(IOWALL_SOURCE_DIR) + "/topologies/cxl-pool.json");
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  const std::string path = "/tmp/iowall_cxl_" + name + "_" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << text;
  return path;
}

void check_one_line_error(const Result& r, const std::string& names) {
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.rfind("iowall: ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find(names) != std::string::npos);
}
}  // namespace

TEST_CASE("cxl kvcache: JSON is byte-identical across runs and compares the tiers", "[cxl][cli]") {
  // Under the sanitizers (25-40x slower) three smaller blocks: the same comparison, fewer lines moved.
  const std::string sizes = iowall::testing::kSanitized ? "4 KiB,16 KiB,64 KiB" : "4 KiB,256 KiB,1 MiB";
  const std::string args = "cxl kvcache --sizes '" + sizes + "' --qd 4 --output-format json";
  const Result a = cli(args), b = cli(args);
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
  const auto j = nlohmann::json::parse(a.out);
  REQUIRE(j["points"].size() == 3);
  const auto& small = j["points"][0];
  // 4 KiB blocks: the CXL tier is far ahead; its idle load is hundreds of ns, NVMe's tens of us.
  CHECK(small["cxl"]["useful_GBps"].get<double>() > 10 * small["nvme"]["useful_GBps"].get<double>());
  const auto& idle = j["summary"]["idle_latency"];
  CHECK(idle["cxl_load_ns"].get<double>() > 200);
  CHECK(idle["cxl_load_ns"].get<double>() < 500);
  CHECK(idle["nvme_read_us"].get<double>() > 40);
  CHECK(j["summary"]["cxl_min_access"] == "64 B");
  CHECK(j["summary"]["nvme_min_access"] == "4 KiB");
}

TEST_CASE("cxl kvcache reads its CXL tier from a topology file", "[cxl][cli]") {
  const Result r = cli("cxl kvcache --topology topologies/cxl-pool.json --tiers cxl --sizes '16 KiB' --output-format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["points"][0]["cxl"]["per_requester_GBps"].size() == 4);
}

TEST_CASE("cxl flit prints the per-message cost", "[cxl][cli]") {
  const Result r = cli("cxl flit --lanes 8 --output-format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["messages"][1]["flits_alone"] == 2);
  CHECK(j["read_payload_ceiling_GBps"].get<double>() == Approx(26.36).epsilon(0.002));
}

TEST_CASE("iowall models lists the CXL models and the cxl link protocol", "[cxl][cli]") {
  const Result all = cli("models");
  REQUIRE(all.code == 0);
  for (const char* name : {"cxl_type3", "cxl_switch", "cxl_host", "link     cxl"}) CHECK(all.out.find(name) != std::string::npos);
  const Result device = cli("models cxl_type3");
  for (const char* name : {"media_latency", "media_bandwidth", "max_requests", "Pond", "CZ120"})
    CHECK(device.out.find(name) != std::string::npos);
  const Result link = cli("models cxl");
  for (const char* name : {"lanes", "flit", "drs_bits"}) CHECK(link.out.find(name) != std::string::npos);
}

TEST_CASE("cxl: bad input is one line naming the option or JSON pointer, exit code 2", "[cxl][cli][errors]") {
  check_one_line_error(cli("cxl kvcache --lanes 3"), "--lanes");
  check_one_line_error(cli("cxl flit --flit 128"), "--flit");
  check_one_line_error(cli("cxl kvcache --sizes '4 KiB,x'"), "--sizes");
  check_one_line_error(cli("cxl kvcache --shared-fraction 1.5"), "--shared-fraction");
  const std::string lanes = broken_topology("lanes", "\"lanes\": 8, \"flit\": 68, \"latency\"", "\"lanes\": 3, \"flit\": 68, \"latency\"");
  check_one_line_error(cli("cxl kvcache --tiers cxl --topology " + lanes), "/links/4/cxl/lanes");
  const std::string latency = broken_topology("latency", "\"latency\": \"25 ns\"", "\"latency\": \"-5 ns\"");
  check_one_line_error(cli("cxl kvcache --tiers cxl --topology " + latency), "/links/4/cxl/latency");
  const std::string model = broken_topology("model", "\"model\": \"cxl_type3\", \"preset\": \"cz120\"", "\"model\": \"cxl_type9\"");
  check_one_line_error(cli("cxl kvcache --tiers cxl --topology " + model), "/devices/5/model");
  for (const std::string& p : {lanes, latency, model}) std::remove(p.c_str());
}
