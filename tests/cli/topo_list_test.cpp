// `iowall topo list` names every shipped topology, and `topo show` and scenarios take
// those names without ".json", from any folder; a close miss is suggested.
#include <catch2/catch.hpp>

#include "tests/support/run_iowall.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

#include <nlohmann/json.hpp>

#ifdef IOWALL_BINARY
TEST_CASE("topo list names the shipped topologies, topo show takes the names", "[cli][topo]") {
  const auto list = iowall::testing::run_iowall("topo list --output-format json");
  REQUIRE(list.code == 0);
  std::set<std::string> listed;
  for (const auto& t : nlohmann::json::parse(list.out)) listed.insert(t["name"].get<std::string>());
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator("topologies"))
    if (e.path().extension() == ".json") files.insert(e.path().stem().string());
  CHECK(listed == files);
  const auto text = iowall::testing::run_iowall("topo list");
  CHECK(text.out.find("dgx-h100 ") != std::string::npos);
  // By name, from another folder: the same description as the file's.
  const auto by_file = iowall::testing::run_iowall("topo show topologies/dgx-h100.json --output-format json");
  const auto by_name = iowall::testing::run_iowall("topo show dgx-h100 --output-format json", "cd / && ");
  REQUIRE(by_file.code == 0);
  REQUIRE(by_name.code == 0);
  CHECK(by_name.out == by_file.out);
  const auto miss = iowall::testing::run_iowall("topo show dgx-h10");
  CHECK(miss.code == 2);
  CHECK(miss.err.find("did you mean \"dgx-h100\"?") != std::string::npos);
  // A scenario may name a shipped topology the same way.
  const std::string sc = "/tmp/iowall_topo_name_" + std::to_string(::getpid()) + ".json";
  std::ofstream(sc) << R"({"name": "by-name", "topology": "workstation-gen5",
    "workload": {"kind": "sequential_read", "size": "16 MiB", "io_size": "1 MiB", "threads": 1,
                 "targets": "gpu0", "storage": "nvme0"}})";
  const auto run = iowall::testing::run_iowall("run " + sc + " --output-format json");
  std::remove(sc.c_str());
  INFO(run.err);
  CHECK(run.code == 0);
}
#endif
