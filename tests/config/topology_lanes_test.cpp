// Lane checks of a loaded topology: a PCIe switch's links share its lanes, and a link
// wider than an end device's widest link trains down to that width.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "tests/support/topology_error.hpp"
#include "sim/config/json_file.hpp"
#include "sim/config/topology.hpp"

using namespace iowall;

namespace {

// A root port, a switch with `gpus` downstream ports, an H100 PCIe on each (x16 links),
// and the switch's upstream link at x16.
Json switch_with_gpus(int gpus, const std::string& preset) {
  Json doc = Json::parse(R"({
    "name": "t", "description": "lanes",
    "devices": [
      {"id": "cpu0", "model": "cpu_socket", "cores": 8},
      {"id": "dram0", "model": "dram"},
      {"id": "rc0", "model": "root_complex", "root_ports": 1}
    ],
    "links": [
      {"a": "cpu0.fabric", "b": "rc0.cpu", "fabric": {"bandwidth": "200 GB/s"}},
      {"a": "rc0.mem", "b": "dram0.mc", "fabric": {"bandwidth": "300 GB/s"}},
      {"a": "rc0.rp0", "b": "sw0.up", "pcie": {"gen": 5, "lanes": 16}}
    ]})");
  doc["devices"].push_back({{"id", "sw0"}, {"model", "pcie_switch"}, {"preset", preset}, {"downstream_ports", gpus}});
  for (int i = 0; i < gpus; ++i) {
    const std::string id = fmt::format("gpu{}", i);
    doc["devices"].push_back({{"id", id}, {"model", "gpu"}, {"preset", "h100_pcie"}});
    doc["links"].push_back({{"a", fmt::format("sw0.dn{}", i)}, {"b", id + ".up"}, {"pcie", {{"gen", 5}, {"lanes", 16}}}});
  }
  return doc;
}

std::string load_error(const Json& doc) { return testing::topology_load_error(doc); }

// One Gen5 link from a root port to an NVMe drive of `preset` ("" for none), `lanes` wide.
Json drive_on_root_port(const std::string& preset, int lanes) {
  Json doc = switch_with_gpus(0, "pex89000");
  doc["devices"].erase(3);  // no switch: the drive sits on the root port
  doc["links"].erase(2);
  Json drive = {{"id", "nvme0"}, {"model", "nvme_ssd"}};
  if (!preset.empty()) drive["preset"] = preset;
  doc["devices"].push_back(drive);
  doc["links"].push_back({{"a", "rc0.rp0"}, {"b", "nvme0.up"}, {"pcie", {{"gen", 5}, {"lanes", lanes}}}});
  return doc;
}

}  // namespace

TEST_CASE("a PCIe switch's links add up to at most its lanes", "[topology][errors][lanes]") {
  // PEX89144 (preset pex89000): 144 lanes. Upstream x16 plus eight x16 GPUs is
  // 16 * (1 + 8) = 144 <= 144: it loads. A ninth GPU makes 16 * (1 + 9) = 160 > 144.
  CHECK(load_error(switch_with_gpus(8, "pex89000")).empty());
  const std::string e = load_error(switch_with_gpus(9, "pex89000"));
  CHECK(e.find("t.json") != std::string::npos);
  CHECK(e.find("/devices/3") != std::string::npos);  // the switch, where the file declares it
  CHECK(e.find("160 lanes wide") != std::string::npos);
  CHECK(e.find("has 144 lanes") != std::string::npos);
  // PEX88096 (preset pex88000): 96 lanes. 16 * (1 + 5) = 96 loads; 16 * (1 + 6) = 112 does not.
  CHECK(load_error(switch_with_gpus(5, "pex88000")).empty());
  CHECK(load_error(switch_with_gpus(6, "pex88000")).find("112 lanes wide") != std::string::npos);
  // PEX89104: 104 lanes. 16 * (1 + 5) = 96 loads; 16 * (1 + 6) = 112 > 104 does not.
  CHECK(load_error(switch_with_gpus(5, "pex89104")).empty());
  CHECK(load_error(switch_with_gpus(6, "pex89104")).find("has 104 lanes") != std::string::npos);
  // An explicit lanes value overrides the preset.
  Json d = switch_with_gpus(2, "pex89000");
  d["devices"][3]["lanes"] = 40;  // 16 * (1 + 2) = 48 > 40
  CHECK(load_error(d).find("48 lanes wide") != std::string::npos);
}

TEST_CASE("a link wider than a drive trains to the drive's width", "[topology][lanes]") {
  // A PM1743 is Gen5 x4 (preset max_link_width 4). Declared at x16, the link trains to
  // x4: its bandwidth is that of a link declared x4 (Gen5: 4 lanes x 32 GT/s x 128/130,
  // about 15.75 GB/s before packet overhead), a quarter of the x16 link's.
  SimContext c1(1), c2(1), c3(1);
  const Topology wide(c1, drive_on_root_port("pm1743", 16), "t.json");
  const Topology narrow(c2, drive_on_root_port("pm1743", 4), "t.json");
  const Topology plain(c3, drive_on_root_port("", 16), "t.json");
  const LinkSpec& w = wide.links().back()->spec();
  const LinkSpec& n = narrow.links().back()->spec();
  const LinkSpec& p = plain.links().back()->spec();
  CHECK(w.bandwidth == n.bandwidth);
  CHECK(w.summary == n.summary);
  CHECK(w.summary.find("x4") != std::string::npos);
  REQUIRE(wide.notes().size() == 1);
  CHECK(wide.notes()[0].find("is x16 but nvme0 (nvme_ssd) links at most x4: it trains to x4") != std::string::npos);
  CHECK(narrow.notes().empty());
  // A plain nvme_ssd (no preset) links up to x16: the shipped single-drive machines keep
  // their x16 link, four times the x4 bandwidth.
  CHECK(plain.notes().empty());
  CHECK(p.bandwidth.GBps_value() == Approx(4 * n.bandwidth.GBps_value()));
}

TEST_CASE("a switch counts the width its port is declared at, not the trained one", "[topology][errors][lanes]") {
  // Eight x16 GPU links and the x16 upstream fill a PEX89144's 144 lanes (16 * 9). A
  // ninth port with a PM1743 on an x16 link trains to x4, but the switch gave that port
  // 16 lanes: 144 + 16 = 160 > 144.
  Json d = switch_with_gpus(8, "pex89000");
  d["devices"][3]["downstream_ports"] = 9;
  d["devices"].push_back({{"id", "nvme0"}, {"model", "nvme_ssd"}, {"preset", "pm1743"}});
  d["links"].push_back({{"a", "sw0.dn8"}, {"b", "nvme0.up"}, {"pcie", {{"gen", 5}, {"lanes", 16}}}});
  CHECK(load_error(d).find("160 lanes wide") != std::string::npos);
  d["links"].back()["pcie"]["lanes"] = 4;  // declared x4: 144 + 4 = 148 > 144 still
  CHECK(load_error(d).find("148 lanes wide") != std::string::npos);
}
