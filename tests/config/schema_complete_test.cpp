// `iowall schema scenario|topology` describes every field (the workload's keys with
// their units and defaults, per target), and a "$schema" key, which editors add, is
// accepted in scenarios and topologies.
#include <catch2/catch.hpp>

#include "tests/support/run_iowall.hpp"

#include <fstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#ifdef IOWALL_BINARY
TEST_CASE("the scenario schema describes every field, the workload's keys included", "[config][schema]") {
  const auto r = iowall::testing::run_iowall("schema scenario");
  REQUIRE(r.code == 0);
  const auto s = nlohmann::json::parse(r.out);
  for (const auto& [key, field] : s["properties"].items()) {
    INFO(key);
    CHECK(field.contains("description"));
  }
  const auto& w = s["properties"]["workload"];
  CHECK(w["description"].get<std::string>().find("per target") != std::string::npos);
  CHECK(w["additionalProperties"] == false);
  for (const char* key : {"kind", "size", "io_size", "threads", "qd", "targets", "storage"}) {
    INFO(key);
    REQUIRE(w["properties"].contains(key));
    CHECK_FALSE(w["properties"][key]["description"].get<std::string>().empty());
  }
  CHECK(w["properties"]["size"]["x-iowall-unit"] == "size");
  CHECK(w["properties"]["size"]["description"].get<std::string>().find("each target") != std::string::npos);
  CHECK(w["properties"]["threads"]["description"].get<std::string>().find("per target") != std::string::npos);
  const auto t = nlohmann::json::parse(iowall::testing::run_iowall("schema topology").out);
  for (const auto& [key, field] : t["properties"].items()) {
    INFO(key);
    CHECK(field.contains("type"));
  }
}

TEST_CASE("a \"$schema\" key is accepted in a scenario and a topology", "[config][schema]") {
  std::ifstream in("topologies/workstation-gen5.json");
  nlohmann::json topo = nlohmann::json::parse(in);
  topo["$schema"] = "https://example.org/iowall-topology.schema.json";
  const std::string tf = "/tmp/iowall_schema_topo_" + std::to_string(::getpid()) + ".json";
  std::ofstream(tf) << topo.dump();
  const auto show = iowall::testing::run_iowall("topo show " + tf);
  INFO(show.err);
  CHECK(show.code == 0);
  const std::string sf = "/tmp/iowall_schema_sc_" + std::to_string(::getpid()) + ".json";
  std::ofstream(sf) << R"({"$schema": "https://example.org/iowall-scenario.schema.json", "name": "s",
    "topology": ")" << tf << R"(", "workload": {"size": "16 MiB", "targets": "gpu0", "storage": "nvme0"}})";
  const auto run = iowall::testing::run_iowall("run " + sf);
  INFO(run.err);
  CHECK(run.code == 0);
  std::remove(tf.c_str());
  std::remove(sf.c_str());
}
#endif
