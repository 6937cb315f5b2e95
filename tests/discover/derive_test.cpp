// What-if variants (sim/config/topology_derive.hpp): each edit on topologies/dgx-h100.json
// changes what it says and the result loads; bad edits are one line with exit 2; a
// scenario may derive its topology, and a sweep may vary the edits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <unistd.h>

#include "sim/config/json_file.hpp"
#include "sim/config/scenario.hpp"
#include "sim/config/topology.hpp"
#include "sim/config/topology_derive.hpp"
#include "sim/config/topology_text.hpp"
#include "tests/support/run_iowall.hpp"

using namespace iowall;

namespace {

Json dgx() { return load_json("topologies/dgx-h100.json").json; }

Json derive(const Json& spec, const Json& base = dgx()) {
  return derive_topology(base, spec, "topologies/dgx-h100.json",
                         [](const std::string& key) { return std::pair<std::string, std::string>{"spec", "/" + key}; });
}

std::string derive_error(const Json& spec) {
  try {
    derive(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::string> ids_of(const Json& t, const std::string& model) {
  std::vector<std::string> out;
  for (const Json& d : t["devices"])
    if (d["model"] == model) out.push_back(d["id"]);
  return out;
}

const Json* device(const Json& t, const std::string& id) {
  for (const Json& d : t["devices"])
    if (d["id"] == id) return &d;
  return nullptr;
}

std::string parent(const Json& t, const std::string& id) {
  for (const Json& l : t["links"]) {
    if (l["a"] == id + ".up") return l["b"].get<std::string>().substr(0, l["b"].get<std::string>().find('.'));
    if (l["b"] == id + ".up") return l["a"].get<std::string>().substr(0, l["a"].get<std::string>().find('.'));
  }
  return "";
}

std::size_t count_below(const Json& t, const std::string& p, const std::string& model) {
  const auto ids = ids_of(t, model);
  return static_cast<std::size_t>(std::count_if(ids.begin(), ids.end(), [&](const std::string& id) { return parent(t, id) == p; }));
}

void check_loads(const Json& t) {
  SimContext ctx(1);
  const Topology topo(ctx, t, "derived");
  CHECK(topo.devices().size() == t["devices"].size());
}

std::string temp_file(const std::string& tag, const std::string& text) {
  static int n = 0;
  const std::string path = "/tmp/iowall_derive_" + std::to_string(getpid()) + "_" + std::to_string(n++) + "_" + tag;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("pcie_gen: every PCIe link at the generation, switches at that generation's preset", "[derive]") {
  const Json g4 = derive({{"pcie_gen", 4}});
  check_loads(g4);
  for (const Json& l : g4["links"])
    if (l.contains("pcie")) CHECK(l["pcie"]["gen"] == 4);
  for (const std::string& s : ids_of(g4, "pcie_switch")) CHECK((*device(g4, s))["preset"] == "pex88000");
  CHECK(g4["name"] == "dgx-h100+gen4");
  // Gen6 has no switch preset: the switches keep theirs, and the sources say so.
  const Json g6 = derive({{"pcie_gen", 6}});
  check_loads(g6);
  CHECK((*device(g6, "sw0"))["preset"] == "pex89000");
  CHECK(g6["sources"].back().get<std::string>().find("no Gen6 switch preset") != std::string::npos);
  for (const Json& l : g6["links"])
    if (l.contains("pcie")) CHECK(l["pcie"]["gen"] == 6);
  CHECK(g6["links"].size() == dgx()["links"].size());
}

TEST_CASE("ssds_per_switch: drives copied under each switch, or the last ones taken away", "[derive]") {
  const Json more = derive({{"ssds_per_switch", 4}});
  check_loads(more);
  for (const std::string& s : ids_of(more, "pcie_switch")) {
    CHECK(count_below(more, s, "nvme_ssd") == 4);
    CHECK((*device(more, s))["downstream_ports"] == 8);  // 6 ports used, two more opened
  }
  CHECK(ids_of(more, "nvme_ssd").size() == 16);
  CHECK(device(more, "nvme15"));
  CHECK((*device(more, "nvme8"))["preset"] == "pm1743");  // a copy of the drive under its switch
  const Json one = derive({{"ssds_per_switch", 1}});
  check_loads(one);
  CHECK(ids_of(one, "nvme_ssd") == std::vector<std::string>{"nvme0", "nvme2", "nvme4", "nvme6"});
  const Json none = derive({{"ssds_per_switch", 0}});
  check_loads(none);
  CHECK(ids_of(none, "nvme_ssd").empty());
}

TEST_CASE("move: a GPU onto a root port of the other socket, its storage route crosses the sockets", "[derive]") {
  const Json moved = derive({{"move", {{"gpu3", "socket1"}}}});
  check_loads(moved);
  CHECK(parent(moved, "gpu3") == "rc1");
  CHECK((*device(moved, "rc1"))["root_ports"] == 3);
  SimContext ctx(1);
  const Topology t(ctx, moved, "moved");
  const Route& r = t.route(*t.find("nvme3"), *t.find("gpu3"));
  CHECK(std::find(r.devices.begin(), r.devices.end(), "rc0") != r.devices.end());
  CHECK(std::find(r.devices.begin(), r.devices.end(), "rc1") != r.devices.end());
  // A socket may also be named by its cpu_socket id.
  CHECK(parent(derive({{"move", {{"gpu5", "cpu0"}}}}), "gpu5") == "rc0");
}

TEST_CASE("nic_rails: NICs per GPU beside each GPU", "[derive]") {
  const Json two = derive({{"nic_rails", 2}});
  check_loads(two);
  for (const std::string& s : ids_of(two, "pcie_switch")) CHECK(count_below(two, s, "nic") == 4);
  CHECK(ids_of(two, "nic").size() == 16);
  const Json zero = derive({{"nic_rails", 0}});
  check_loads(zero);
  CHECK(ids_of(zero, "nic").empty());
}

TEST_CASE("drive: every drive takes the preset, its own parameters dropped", "[derive]") {
  Json base = dgx();
  base["devices"][9]["capacity"] = "1 TB";  // nvme0 with a parameter of its own
  const Json t = derive({{"drive", "micron_9650"}}, base);
  check_loads(t);
  for (const std::string& id : ids_of(t, "nvme_ssd"))
    CHECK(*device(t, id) == Json({{"id", id}, {"model", "nvme_ssd"}, {"preset", "micron_9650"}}));
}

TEST_CASE("edits combine, and the result reads back from its text", "[derive]") {
  const Json t = derive({{"pcie_gen", 6}, {"ssds_per_switch", 3}, {"nic_rails", 1}, {"drive", "micron_9650"},
                         {"move", {{"gpu0", "socket1"}}}});
  check_loads(t);
  for (const Json& l : t["links"])
    if (l.contains("pcie")) CHECK(l["pcie"]["gen"] == 6);  // the added drives' links too
  CHECK(ids_of(t, "nvme_ssd").size() == 12);
  CHECK(Json::parse(topology_text(t)) == t);
  CHECK(derive(Json::object()) == dgx());  // no edits: the base
}

TEST_CASE("bad edits name the key and say what is wrong", "[derive][errors]") {
  CHECK(derive_error({{"move", {{"gpu9", "socket1"}}}}).find("no GPU \"gpu9\"") != std::string::npos);
  CHECK(derive_error({{"move", {{"gpu9", "socket1"}}}}).find("spec: /move/gpu9") == 0);
  CHECK(derive_error({{"move", {{"gpu1", "socket5"}}}}).find("no socket \"socket5\"") != std::string::npos);
  CHECK(derive_error({{"pcie_gen", 7}}).find("7 is not a PCIe generation") != std::string::npos);
  CHECK(derive_error({{"pcie_gen", 0}}).find("not a PCIe generation") != std::string::npos);
  CHECK(derive_error({{"ssds_per_switch", -1}}).find("-1 is not a count") != std::string::npos);
  CHECK(derive_error({{"nic_rails", -2}}).find("not a count") != std::string::npos);
  CHECK(derive_error({{"nic_rails", 1.5}}).find("not a whole number") != std::string::npos);
  CHECK(derive_error({{"drive", "floppy"}}).find("unknown nvme_ssd preset \"floppy\"") != std::string::npos);
  CHECK(derive_error({{"pcie_generation", 5}}).find("unknown edit") != std::string::npos);
  CHECK(derive_error({{"ssds_per_switch", 200}}).find("more than 128") != std::string::npos);
}

TEST_CASE("topo derive: one line per edit, bad input exit 2 in one line", "[derive][cli]") {
  const std::string out = "/tmp/iowall_derive_" + std::to_string(getpid()) + "_cli.json";
  testing::CliResult r = testing::run_iowall("topo derive topologies/dgx-h100.json --pcie-gen 6 --ssds-per-switch 2 "
                                             "--move gpu3=socket1 --nic-rails 1 --drive micron_9650 -o " + out);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const Json t = Json::parse(testing::slurp(out));
  CHECK(t == derive({{"pcie_gen", 6}, {"ssds_per_switch", 2}, {"move", {{"gpu3", "socket1"}}}, {"nic_rails", 1},
                     {"drive", "micron_9650"}}));
  std::remove(out.c_str());
  r = testing::run_iowall("topo derive topologies/dgx-h100.json --pcie-gen 5");
  CHECK(r.code == 0);
  CHECK(Json::parse(r.out)["name"] == "dgx-h100+gen5");

  auto bad = [](const std::string& args, const std::string& words) {
    const testing::CliResult b = testing::run_iowall("topo derive topologies/dgx-h100.json " + args);
    INFO(args << " -> " << b.err);
    CHECK(b.code == 2);
    CHECK(std::count(b.err.begin(), b.err.end(), '\n') == 1);
    CHECK(b.err.find(words) != std::string::npos);
  };
  bad("--move gpu9=socket1", "--move: no GPU \"gpu9\"");
  bad("--move gpu1=socket7", "--move: no socket \"socket7\"");
  bad("--move gpu1", "is not GPU=SOCKET");
  bad("--pcie-gen 7", "--pcie-gen: 7 is not a PCIe generation");
  bad("--ssds-per-switch -1", "--ssds-per-switch: -1 is not a count");
  bad("--nic-rails -3", "--nic-rails: -3 is not a count");
  bad("--drive nope", "--drive: unknown nvme_ssd preset");
  bad("--pcie-gen 5 -o /nonexistent-iowall-dir/t.json", "-o");
  const testing::CliResult missing = testing::run_iowall("topo derive /nonexistent-iowall.json --pcie-gen 5");
  CHECK(missing.code == 2);
}

TEST_CASE("a scenario derives its topology, and a sweep varies the edit", "[derive][cli]") {
  const Json scenario = {
      {"name", "derived-gen"},
      {"topology", {{"base", "topologies/dgx-h100.json"}, {"derive", {{"pcie_gen", 5}, {"ssds_per_switch", 2}}}}},
      {"workload", {{"kind", "sequential_read"}, {"size", "64 MiB"}, {"io_size", "1 MiB"}, {"threads", 2}, {"qd", 2},
                    {"targets", "gpu0"}, {"storage", "local"}}},
      {"paths", {"gpu_direct"}},
      {"sweep", {{"/topology/derive/pcie_gen", {3, 4, 5}}}}};
  const std::string file = temp_file("scenario.json", scenario.dump(2));
  const Scenario s = load_scenario(file);
  CHECK(s.topology["name"] == "dgx-h100+2ssd+gen5");
  CHECK(s.topology_file.find("topologies/dgx-h100.json (derived in ") == 0);
  const testing::CliResult r = testing::run_iowall("sweep " + file + " --output-format json");
  INFO(r.err);
  REQUIRE(r.code == 0);
  const Json points = Json::parse(r.out)["points"];
  REQUIRE(points.size() == 3);
  // Gen3 x4 drive links (~3.9 GB/s each) give less than Gen5 (~15 GB/s) for the same drives.
  const std::string g3 = points[0].dump(), g5 = points[2].dump();
  CHECK(g3 != g5);

  auto bad = [&](const Json& topology, const std::string& pointer, const std::string& words) {
    Json sc = scenario;
    sc.erase("sweep");
    sc["topology"] = topology;
    const std::string f = temp_file("bad.json", sc.dump(2));
    const testing::CliResult b = testing::run_iowall("run " + f);
    INFO(b.err);
    CHECK(b.code == 2);
    CHECK(b.err.find(f + ": " + pointer + ": ") != std::string::npos);
    CHECK(b.err.find(words) != std::string::npos);
    std::remove(f.c_str());
  };
  bad({{"base", "topologies/dgx-h100.json"}, {"derive", {{"pcie_gen", 7}}}}, "/topology/derive/pcie_gen", "7 is not");
  bad({{"base", "topologies/dgx-h100.json"}, {"derive", {{"move", {{"gpu9", "socket0"}}}}}}, "/topology/derive/move/gpu9",
      "no GPU");
  bad({{"base", "topologies/nope.json"}}, "/topology/base", "nope.json");
  bad({{"base", "topologies/dgx-h100.json"}, {"extra", 1}}, "/topology/extra", "\"base\"");
  std::remove(file.c_str());
}
