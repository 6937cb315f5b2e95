// Discovery on recorded machines (tests/discover/fixtures): the project's CPU machine as
// scripts/capture-sysfs.sh recorded it, and a DGX H100-class tree written from public
// listings (fixtures/make-dgx-h100.sh). Counts, socket placement and link widths are
// checked against what the recordings hold, and the discovered topologies load and run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

#include "discover/discover.hpp"
#include "discover/host_scan.hpp"
#include "discover/nvidia_smi.hpp"
#include "discover/parts.hpp"
#include "discover/pci_scan.hpp"
#include "sim/config/registry.hpp"
#include "sim/config/topology.hpp"
#include "sim/config/topology_text.hpp"
#include "tests/support/run_iowall.hpp"

using namespace iowall;
using nlohmann::json;

namespace {

std::string fixture(const std::string& name) { return std::string(IOWALL_SOURCE_DIR) + "/tests/discover/fixtures/" + name; }

json discovered(const std::string& name) {
  discover::DiscoverOptions o;
  o.sysfs_root = fixture(name);
  return discover::discover_topology(o).topology;
}

std::vector<json> devices_of(const json& t, const std::string& model) {
  std::vector<json> out;
  for (const json& d : t["devices"])
    if (d["model"] == model) out.push_back(d);
  return out;
}

const json* device(const json& t, const std::string& id) {
  for (const json& d : t["devices"])
    if (d["id"] == id) return &d;
  return nullptr;
}

// The link at port REF ("gpu0.up"), and the device at its other end.
const json* link_at(const json& t, const std::string& ref) {
  for (const json& l : t["links"])
    if (l["a"] == ref || l["b"] == ref) return &l;
  return nullptr;
}
std::string parent(const json& t, const std::string& id) {
  const json* l = link_at(t, id + ".up");
  if (!l) return "";
  const std::string other = (*l)["a"] == id + ".up" ? (*l)["b"] : (*l)["a"];
  return other.substr(0, other.find('.'));
}
// The root complex above a device (through switches).
std::string root_of(const json& t, std::string id) {
  for (int i = 0; i < 8 && !id.empty(); ++i) {
    const json* d = device(t, id);
    if (d && (*d)["model"] == "root_complex") return id;
    id = parent(t, id);
  }
  return "";
}

std::string write_temp(const std::string& tag, const std::string& text) {
  static int n = 0;
  const std::string path = "/tmp/iowall_discover_" + std::to_string(getpid()) + "_" + std::to_string(n++) + "_" + tag;
  std::ofstream(path) << text;
  return path;
}

bool loads(const json& t) {
  SimContext ctx(1);
  const Topology topo(ctx, t, "discovered");
  return !topo.devices().empty();
}

}  // namespace

TEST_CASE("the CPU machine's recording: one socket, its memory, the virtio disk as an emulated nvme_ssd", "[discover]") {
  const json t = discovered("cpu-machine");
  REQUIRE(loads(t));
  const auto cpus = devices_of(t, "cpu_socket");
  REQUIRE(cpus.size() == 1);
  const json& cpu = cpus[0];
  CHECK(cpu["cores"] == 2);
  CHECK_FALSE(cpu.contains("preset"));  // "AMD EPYC" names no preset: a note says what to set
  CHECK(cpu["description"].get<std::string>().find("memcpy_per_core") != std::string::npos);
  // /proc/meminfo's MemTotal (24684084 kB) is above the node's: the VM's added memory counts.
  CHECK(devices_of(t, "dram")[0]["capacity"] == "24684084 KiB");
  const auto drives = devices_of(t, "nvme_ssd");
  REQUIRE(drives.size() == 1);
  const json& vda = drives[0];
  CHECK(vda["id"] == "vda");
  CHECK(vda["read_service"] == "batched");
  CHECK(vda["capacity"] == "256 GiB");  // size 536870912 sectors of 512 B
  CHECK(vda["lba_size"] == "512 B");
  CHECK(vda["driver"]["io_queues"] == 1);
  // No PCIe link attributes (virtio): a link that never limits it.
  CHECK((*link_at(t, "vda.up"))["pcie"] == json({{"gen", 5}, {"lanes", 16}}));
  CHECK(root_of(t, "vda") == "rc0");
  // The virtio network device, whose speed reads -1: a nic with a note to set its line rate.
  REQUIRE(devices_of(t, "nic").size() == 1);
  CHECK(devices_of(t, "nic")[0]["id"] == "eth0");
  CHECK_FALSE(devices_of(t, "nic")[0].contains("line_rate"));
  CHECK(devices_of(t, "gpu").empty());
  CHECK(devices_of(t, "pcie_switch").empty());
  // Sources name the files, as the machine's own paths.
  const std::string sources = t["sources"].dump();
  CHECK(sources.find("/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda") != std::string::npos);
  CHECK(sources.find("fixtures") == std::string::npos);
}

TEST_CASE("the GPU machine's recording: the H200 on a Gen5 x16 root port, two virtio disks", "[discover]") {
  const json t = discovered("gpu-machine");
  REQUIRE(loads(t));
  const auto cpus = devices_of(t, "cpu_socket");
  REQUIRE(cpus.size() == 1);
  CHECK(cpus[0]["cores"] == 16);
  const auto gpus = devices_of(t, "gpu");
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0]["preset"] == "h200");  // 10de:2335
  CHECK(root_of(t, "gpu0") == "rc0");
  CHECK((*link_at(t, "gpu0.up"))["pcie"] == json({{"gen", 5}, {"lanes", 16}}));
  const auto drives = devices_of(t, "nvme_ssd");
  REQUIRE(drives.size() == 2);
  for (const json& d : drives) CHECK(d["read_service"] == "batched");
  CHECK((*device(t, "vda"))["capacity"] == "256 GiB");
  // nvidia-smi ran there: its product name is a source; one GPU, so no NVLink.
  CHECK(t["sources"].dump().find("nvidia-smi -q") != std::string::npos);
  CHECK(devices_of(t, "nvswitch").empty());
}

TEST_CASE("a DGX H100-class tree: sockets, switches, GPUs, NICs and drives where they are", "[discover]") {
  const json t = discovered("dgx-h100");
  REQUIRE(loads(t));
  const auto cpus = devices_of(t, "cpu_socket");
  REQUIRE(cpus.size() == 2);
  for (const json& c : cpus) {
    CHECK(c["preset"] == "xeon_8480");
    CHECK(c["cores"] == 56);  // 112 threads, 56 distinct core ids per package
  }
  CHECK(devices_of(t, "dram")[0]["capacity"] == "1056462772 KiB");
  CHECK(devices_of(t, "dram")[0]["bandwidth"] == "307 GB/s");

  const auto gpus = devices_of(t, "gpu");
  REQUIRE(gpus.size() == 8);
  for (const json& g : gpus) CHECK(g["preset"] == "h100_sxm");
  const auto switches = devices_of(t, "pcie_switch");
  REQUIRE(switches.size() == 8);
  for (const json& s : switches) {
    CHECK(s["preset"] == "pex89000");
    CHECK(s["downstream_ports"] == 4);  // four downstream ports each, one of them empty
  }
  // Compute NICs are ConnectX-7 at 400 Gb/s; the management X550 (two ports, one link) is
  // one generic nic with a note.
  const auto nics = devices_of(t, "nic");
  REQUIRE(nics.size() == 9);
  CHECK(std::count_if(nics.begin(), nics.end(), [](const json& n) { return n.value("preset", "") == "cx7_400g"; }) == 8);
  for (const json& n : nics)
    if (n.value("preset", "") == "cx7_400g") CHECK(n["line_rate"] == "400 Gb/s");
  // Eight PM1743 data drives and two boot drives of an unknown part.
  const auto drives = devices_of(t, "nvme_ssd");
  REQUIRE(drives.size() == 10);
  CHECK(std::count_if(drives.begin(), drives.end(), [](const json& d) { return d.value("preset", "") == "pm1743"; }) == 8);
  const json* nvme2 = device(t, "nvme2");
  REQUIRE(nvme2);
  CHECK((*nvme2)["lba_size"] == "4 KiB");
  CHECK((*nvme2)["mdts"] == "512 KiB");
  CHECK((*nvme2)["driver"]["io_queues"] == 128);
  CHECK((*nvme2)["capacity"] == "3750738264 KiB");
  const json* boot = device(t, "nvme0");
  REQUIRE(boot);
  CHECK_FALSE(boot->contains("preset"));
  CHECK((*boot)["description"].get<std::string>().find("not a known drive") != std::string::npos);

  // Socket placement: GPUs 0-3 (NUMA node 0) under rc0, 4-7 under rc1, each behind its own switch
  // shared with its NIC and drive.
  for (int g = 0; g < 8; ++g) {
    const std::string id = "gpu" + std::to_string(g);
    CHECK(root_of(t, id) == (g < 4 ? "rc0" : "rc1"));
    CHECK(device(t, parent(t, id))->at("model") == "pcie_switch");
  }
  CHECK(parent(t, "gpu0") == parent(t, "mlx5_0"));  // NICs by their RDMA (or network) device names
  CHECK(parent(t, "gpu7") == parent(t, "mlx5_11"));
  CHECK(parent(t, "gpu0") == parent(t, "nvme2"));
  CHECK(root_of(t, "nvme9") == "rc1");
  CHECK(root_of(t, "nvme0") == "rc0");  // a boot drive on its own root port
  CHECK(parent(t, "nvme0") == "rc0");

  // Link widths and generations: GPUs read Gen1 while idle but their links are Gen5 x16.
  CHECK((*link_at(t, "gpu0.up"))["pcie"] == json({{"gen", 5}, {"lanes", 16}}));
  CHECK((*link_at(t, "nvme2.up"))["pcie"] == json({{"gen", 5}, {"lanes", 4}}));
  CHECK((*link_at(t, "nvme0.up"))["pcie"] == json({{"gen", 4}, {"lanes", 4}}));
  CHECK((*link_at(t, "sw0.up"))["pcie"] == json({{"gen", 5}, {"lanes", 16}}));
  CHECK((*link_at(t, "eno1.up"))["pcie"] == json({{"gen", 3}, {"lanes", 4}}));
  // Root ports: 4 switches + 2 boot drives + the management NIC on socket 0, 4 on socket 1.
  CHECK((*device(t, "rc0"))["root_ports"] == 7);
  CHECK((*device(t, "rc1"))["root_ports"] == 4);
  CHECK(link_at(t, "rc0.peer"));

  // NVLink from nvidia-smi topo -m: every pair NV18, one NVSwitch fabric at 18 x 25 GB/s per GPU.
  const auto nvs = devices_of(t, "nvswitch");
  REQUIRE(nvs.size() == 1);
  CHECK(nvs[0]["ports"] == 8);
  CHECK((*link_at(t, "gpu5.nvlink"))["fabric"]["bandwidth"] == "450 GB/s");
  // The NVSwitches' own PCI functions (class 0x0680) are not devices.
  CHECK(devices_of(t, "gpu").size() + devices_of(t, "nic").size() + devices_of(t, "nvme_ssd").size() == 27);
}

TEST_CASE("a discovered topology written as text reads back the same and runs", "[discover][cli]") {
  for (const char* name : {"cpu-machine", "gpu-machine", "dgx-h100"}) {
    const json t = discovered(name);
    const std::string text = topology_text(t);
    CHECK(json::parse(text) == t);
    const std::string topo = write_temp(std::string(name) + ".json", text);
    const bool gpu = std::string(name) != "cpu-machine";
    const json scenario = {
        {"name", "discovered-run"},
        {"topology", topo},
        {"workload",
         gpu ? json{{"kind", "sequential_read"}, {"size", "64 MiB"}, {"io_size", "1 MiB"}, {"threads", 2}, {"qd", 1},
                    {"targets", "gpu0"}, {"storage", "local"}}
             : json{{"kind", "sequential_read"}, {"size", "16 MiB"}, {"io_size", "128 KiB"}, {"threads", 1},
                    {"qd", 2}, {"targets", "dram0"}, {"storage", "all"}}},
        {"paths", gpu ? json{"gpu_direct", "cpu_gpu"} : json{"cpu_only"}}};
    const std::string sc = write_temp(std::string(name) + "-scenario.json", scenario.dump(2));
    const testing::CliResult r = testing::run_iowall("run " + sc + " --output-format json");
    INFO(name << ": " << r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("\"throughput_GBps\"") != std::string::npos);
    std::remove(topo.c_str());
    std::remove(sc.c_str());
  }
}

TEST_CASE("topo discover: a file with -o, notes on stdout, bad input in one line with exit 2", "[discover][cli]") {
  const std::string out = "/tmp/iowall_discover_" + std::to_string(getpid()) + "_cli.json";
  testing::CliResult r = testing::run_iowall("topo discover --sysfs-root " + fixture("dgx-h100") + " -o " + out);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("2 sockets") != std::string::npos);
  CHECK(r.out.find("nvme0: ") != std::string::npos);  // the unknown boot drive's note
  const json written = json::parse(testing::slurp(out));
  CHECK(written == discovered("dgx-h100"));
  std::remove(out.c_str());

  // Standard output when no -o.
  r = testing::run_iowall("topo discover --sysfs-root " + fixture("cpu-machine"));
  CHECK(r.code == 0);
  CHECK(json::parse(r.out)["name"] == "discovered");

  auto bad = [](const std::string& args, const std::string& words) {
    const testing::CliResult b = testing::run_iowall("topo discover " + args);
    INFO(args << " -> " << b.err);
    CHECK(b.code == 2);
    CHECK(std::count(b.err.begin(), b.err.end(), '\n') == 1);
    CHECK(b.err.find(words) != std::string::npos);
    CHECK(b.out.empty());
  };
  bad("--sysfs-root " + fixture(""), "is not a sysfs tree");
  bad("--sysfs-root /nonexistent-iowall-root", "is not a sysfs tree");
  bad("--sysfs-root " + fixture("cpu-machine") + " -o /nonexistent-iowall-dir/t.json", "-o");
  bad("--sysfs-root " + fixture("cpu-machine") + " --nvidia-smi-dir /nonexistent-iowall-dir", "--nvidia-smi-dir");
  bad("--sysfs-root " + fixture("cpu-machine") + " --nvidia-smi-dir " + fixture("cpu-machine"), "q.txt");
}

TEST_CASE("topo discover reads the running machine and what it writes loads", "[discover][cli]") {
  const testing::CliResult r = testing::run_iowall("topo discover");
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json t = json::parse(r.out);
  CHECK(loads(t));
  CHECK_FALSE(devices_of(t, "cpu_socket").empty());
}

TEST_CASE("scripts/capture-sysfs.sh records what discovery reads: a recording of a recording discovers the same",
          "[discover][cli]") {
  const std::string out = "/tmp/iowall_capture_" + std::to_string(getpid());
  const std::string src = fixture("dgx-h100");
  const std::string cmd = "SYSFS=" + src + "/sys PROCFS=" + src + "/proc bash " + std::string(IOWALL_SOURCE_DIR) +
                          "/scripts/capture-sysfs.sh " + out + " 2>/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  discover::DiscoverOptions a, b;
  a.sysfs_root = src;
  b.sysfs_root = out;
  b.nvidia_smi_dir = src + "/nvidia-smi";  // nvidia-smi is not on this machine's PATH to record
  CHECK(discover::discover_topology(b).topology == discover::discover_topology(a).topology);
  // Never into a folder that holds something.
  CHECK(std::system(cmd.c_str()) != 0);
  std::filesystem::remove_all(out);
}

TEST_CASE("discovery's parsers: link speeds, CPU lists, nvidia-smi output", "[discover]") {
  CHECK(discover::pcie_generation("2.5 GT/s PCIe") == 1);
  CHECK(discover::pcie_generation("8.0 GT/s") == 3);
  CHECK(discover::pcie_generation("32.0 GT/s PCIe") == 5);
  CHECK(discover::pcie_generation("64.0 GT/s PCIe") == 6);
  CHECK(discover::pcie_generation("Unknown") == 0);
  CHECK(discover::parse_cpulist("0-3,8,10-11") == std::vector<int>{0, 1, 2, 3, 8, 10, 11});
  CHECK(discover::function_above("/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda") == "0000:00:02.0");

  const std::string q = "GPU 00000000:1B:00.0\n    Product Name : NVIDIA H100 80GB HBM3\n    FB Memory Usage\n"
                        "        Total : 81559 MiB\nGPU 00000000:43:00.0\n    Product Name : NVIDIA H100 PCIe\n";
  const std::string topo = "\t\x1b[4mGPU0\tGPU1\tCPU Affinity\x1b[0m\nGPU0\t X \tNV4\t0-7\nGPU1\tNV4\t X \t0-7\n\nLegend:\n";
  const discover::NvidiaSmi s = discover::parse_nvidia_smi(q, topo, "q", "t");
  CHECK(s.gpus == std::vector<std::string>{"0000:1b:00.0", "0000:43:00.0"});
  CHECK(s.product.at("0000:43:00.0") == "NVIDIA H100 PCIe");
  CHECK(s.memory.at("0000:1b:00.0") == "81559 MiB");
  REQUIRE(s.nvlinks.size() == 2);
  CHECK(s.nvlinks[0][1] == 4);
  CHECK(s.nvlinks[1][1] == 0);
}

TEST_CASE("every preset the part tables name exists", "[discover]") {
  for (const auto& [model, preset] : discover::presets_named()) {
    const ModelEntry* e = ModelRegistry::instance().find("device", model);
    INFO(model << " " << preset);
    REQUIRE(e);
    CHECK(e->presets.count(preset) == 1);
  }
  CHECK(discover::match_gpu(0x10de, 0x9999, "NVIDIA H200").preset == "h200");  // by nvidia-smi's name
  CHECK(discover::match_gpu(0x10de, 0x9999, "").preset.empty());
  CHECK(discover::match_switch(0x1000, 0xc030, 5).preset == "pex89000");
  CHECK(discover::match_switch(0x11f8, 0x4000, 4).preset.empty());  // not a Broadcom part
  CHECK(discover::match_nvme(0x8086, 0x2701, "INTEL SSDPE21K375GA").preset == "optane_p4800x");
}
