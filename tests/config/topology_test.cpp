#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include <fmt/format.h>

#include "tests/support/topology_error.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/topology.hpp"

using namespace iowall;

namespace {

Json base_topology() {
  return Json::parse(R"({
    "name": "t", "description": "test",
    "devices": [
      {"id": "cpu0", "model": "cpu_socket", "cores": 8},
      {"id": "dram0", "model": "dram"},
      {"id": "rc0", "model": "root_complex", "root_ports": 2},
      {"id": "sw0", "model": "pcie_switch", "downstream_ports": 2},
      {"id": "gpu0", "model": "gpu", "preset": "h100_pcie"},
      {"id": "nvme0", "model": "nvme_ssd", "preset": "pm1743"}
    ],
    "links": [
      {"a": "cpu0.fabric", "b": "rc0.cpu", "fabric": {"bandwidth": "200 GB/s"}},
      {"a": "rc0.mem", "b": "dram0.mc", "fabric": {"bandwidth": "300 GB/s"}},
      {"a": "rc0.rp0", "b": "sw0.up", "pcie": {"gen": 5, "lanes": 16}},
      {"a": "sw0.dn0", "b": "gpu0.up", "pcie": {"gen": 5, "lanes": 16}},
      {"a": "sw0.dn1", "b": "nvme0.up", "pcie": {"gen": 5, "lanes": 4}}
    ]})");
}

std::string load_error(const Json& doc) { return testing::topology_load_error(doc); }

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a valid topology loads and routes through the switch", "[topology]") {
  SimContext ctx(1);
  Topology t(ctx, base_topology(), "t.json");
  const Route& r = t.route(*t.find("nvme0"), *t.find("gpu0"));
  CHECK(r.devices == std::vector<std::string>{"nvme0", "sw0", "gpu0"});
  CHECK(r.hops.size() == 2);
  // The switch's cut-through latency is on the hop into it.
  CHECK(r.hops[0].latency > r.hops[1].latency);
  const Route& h = t.route(*t.find("nvme0"), *t.find("dram0"));
  CHECK(h.devices == std::vector<std::string>{"nvme0", "sw0", "rc0", "dram0"});
  CHECK(t.dot().find("graph G") != std::string::npos);
}

TEST_CASE("topology mistakes are named by JSON pointer", "[topology][errors]") {
  Json d = base_topology();
  d["devices"][1]["id"] = "cpu0";
  CHECK(load_error(d) == "t.json: /devices/1/id: duplicate device id \"cpu0\"");

  d = base_topology();
  d["devices"][5]["model"] = "nvme_sdd";
  CHECK(contains(load_error(d), "/devices/5/model"));

  d = base_topology();
  d["devices"][5]["preset"] = "pm9999";
  CHECK(contains(load_error(d), "t.json: /devices/5/preset: \"pm9999\" is not one of: "));
  CHECK(contains(load_error(d), "pm1743"));

  d = base_topology();
  d["devices"][5]["read_latency"] = "60 parsecs";
  CHECK(load_error(d) == "t.json: /devices/5/read_latency: \"60 parsecs\" is not a time (expected e.g. \"60 us\")");

  d = base_topology();
  d["devices"][5]["read_latency"] = 60;
  CHECK(contains(load_error(d), "/devices/5/read_latency: 60 is not a time with its unit"));

  d = base_topology();
  d["devices"][5]["capacity"] = "-4 TB";
  CHECK(contains(load_error(d), "/devices/5/capacity"));

  d = base_topology();
  d["devices"][5]["read_latancy"] = "60 us";
  CHECK(contains(load_error(d), "/devices/5"));
  CHECK(contains(load_error(d), "read_latancy"));

  d = base_topology();
  d["links"][4]["b"] = "nvme0.down";
  CHECK(contains(load_error(d), "t.json: /links/4/b: nvme0 (nvme_ssd) has no port \"down\" (its ports: up)"));

  d = base_topology();
  d["links"][4]["a"] = "sw0.dn0";
  CHECK(contains(load_error(d), "/links/4/a: port sw0.dn0 is already joined"));

  d = base_topology();
  d["links"][4]["a"] = "gpu9.up";
  CHECK(contains(load_error(d), "/links/4/a: no device \"gpu9\""));

  d = base_topology();
  d["links"].erase(4);
  CHECK(contains(load_error(d), "port nvme0.up (PCIe upstream port) is not connected"));

  d = base_topology();
  d["links"][3]["pcie"]["lanes"] = 3;
  CHECK(contains(load_error(d), "/links/3/pcie/lanes: x3 is not a PCIe link width"));

  d = base_topology();
  d["links"][3]["pcie"]["mps"] = "384 B";
  CHECK(contains(load_error(d), "/links/3/pcie/mps"));
}

TEST_CASE("a topology's device and link counts are refused before anything is built", "[topology][errors]") {
  // 100,001 devices that are all the same empty object: building them would fail at the first
  // (no id), so a message naming the count shows the check ran before the first device.
  Json d = base_topology();
  d["devices"] = Json::array();
  for (int i = 0; i < 100'001; ++i) d["devices"].push_back(Json::object());
  CHECK(load_error(d) == "t.json: /devices: 100001 devices: a topology holds at most 100000 "
                         "(model many nodes as a cluster with `iowall plan`)");
  d["devices"].erase(0);  // at the limit the count passes and the schema names a device without an id
  CHECK(contains(load_error(d), "t.json: /devices/"));
  CHECK(contains(load_error(d), "Missing required property"));

  d = base_topology();
  d["links"] = Json::array();
  for (int i = 0; i < 400'001; ++i) d["links"].push_back(Json::object());
  CHECK(contains(load_error(d), "t.json: /links: 400001 links: a topology holds at most 400000"));
}

TEST_CASE("PCIe must be a tree joining upstream to downstream ports", "[topology][errors]") {
  Json d = base_topology();
  // Two upstream ports joined: a GPU straight to an SSD.
  d["devices"].push_back(Json::parse(R"({"id": "nvme1", "model": "nvme_ssd", "preset": "pm1743"})"));
  d["devices"].push_back(Json::parse(R"({"id": "gpu1", "model": "gpu", "preset": "h100_pcie"})"));
  d["links"].push_back(Json::parse(R"({"a": "gpu1.up", "b": "nvme1.up", "pcie": {"gen": 5, "lanes": 4}})"));
  CHECK(contains(load_error(d), "are both PCIe upstream ports"));

  // A cycle with every link upstream-to-downstream: two switches each below the other.
  Json c = base_topology();
  c["devices"].push_back(Json::parse(R"({"id": "sw1", "model": "pcie_switch", "downstream_ports": 1})"));
  c["devices"].push_back(Json::parse(R"({"id": "sw2", "model": "pcie_switch", "downstream_ports": 1})"));
  c["links"].push_back(Json::parse(R"({"a": "sw1.dn0", "b": "sw2.up", "pcie": {"gen": 5, "lanes": 16}})"));
  c["links"].push_back(Json::parse(R"({"a": "sw2.dn0", "b": "sw1.up", "pcie": {"gen": 5, "lanes": 16}})"));
  CHECK(contains(load_error(c), "cycle"));
}

TEST_CASE("a pipe is read to its end, as a shell's process substitution gives one", "[topology]") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / fmt::format("iowall-fifo-{}", ::getpid());
  std::filesystem::create_directories(dir);
  const std::string fifo = (dir / "topology.json").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string text = base_topology().dump();
  std::thread writer([&] { std::ofstream(fifo) << text; });
  const JsonDocument doc = load_json(fifo);
  writer.join();
  CHECK(doc.json == base_topology());
  // Loaded again (a sweep's next point, plan --node's next run): the pipe has given its bytes,
  // so the first read's text serves. A second read of the pipe would wait for a writer; after
  // 10 s one writes "{}" to end that wait, and the document would not be the topology.
  auto again = std::async(std::launch::async, [&] { return load_json(fifo); });
  if (again.wait_for(std::chrono::seconds(10)) != std::future_status::ready) std::ofstream(fifo) << "{}";
  CHECK(again.get().json == base_topology());
  std::filesystem::remove_all(dir);
}

TEST_CASE("missing and malformed files get one clear line", "[topology][errors]") {
  try {
    load_json("does/not/exist.json");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "does/not/exist.json: no such file");
  }
  try {  // it exists, so "no such file" would be wrong; read, it would give nothing or never end
    load_json("/dev/null");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "/dev/null: is a character device, expected a JSON file");
  }
  try {
    parse_json_text("{\n  \"name\": \"x\",\n  \"devices\": [,]\n}", "broken.json");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(contains(e.what(), "broken.json: line 3, column"));
    CHECK(contains(e.what(), "malformed JSON"));
  }
}
