#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/run_iowall.hpp"

using Json = nlohmann::json;

TEST_CASE("bench pcie moves the same bytes through the fabric alone and the whole GDS stack", "[pcie][bench]") {
  const auto r = iowall::testing::run_iowall("bench pcie --size \"32 MiB\" --output-format json",
                                             std::string("cd ") + IOWALL_SOURCE_DIR + " && ");
  REQUIRE(r.code == 0);
  const Json j = Json::parse(r.out);
  REQUIRE(j["cases"].size() == 2);
  const Json& fabric = j["cases"][0];
  const Json& storage = j["cases"][1];
  CHECK(fabric["case"] == "fabric");
  CHECK(storage["case"] == "storage");
  // Eight Gen5 x4 drive links (15.75 GB/s raw, about 14.4 after TLP overhead) feed the GPUs.
  CHECK(fabric["simulated_GBps"].get<double>() > 100.0);
  CHECK(fabric["simulated_GBps"].get<double>() < 8 * 15.75);
  // The NVMe exchange and the media only subtract; the drives' 14 GB/s read path caps them.
  CHECK(storage["simulated_GBps"].get<double>() < fabric["simulated_GBps"].get<double>());
  CHECK(storage["simulated_GBps"].get<double>() > 0.8 * fabric["simulated_GBps"].get<double>());
  // The protocol and media costs events: more per byte than the bare fabric.
  CHECK(storage["events"].get<double>() > fabric["events"].get<double>());
}
