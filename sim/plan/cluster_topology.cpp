#include "sim/plan/cluster_topology.hpp"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace iowall::plan {

namespace {

std::string link_rate(double bytes_per_s) { return fmt::format("{} B/s", static_cast<long long>(std::llround(bytes_per_s))); }

// Ethernet switches and the ports they have handed out.
class Switches {
public:
  explicit Switches(Json& devices) : devices_(devices) {}
  std::string port(const std::string& sw) { return fmt::format("{}.p{}", sw, used_[sw]++); }
  void declare_all() {
    for (const auto& [sw, ports] : used_)
      devices_.push_back({{"id", sw}, {"model", "ethernet_switch"}, {"ports_count", ports}});
  }

private:
  Json& devices_;
  std::map<std::string, int> used_;
};

Json ethernet(const std::string& a, const std::string& b, double bytes_per_s) {
  return {{"a", a}, {"b", b}, {"ethernet", {{"rate", link_rate(bytes_per_s)}, {"cable", "3 m"}}}};
}

Json pcie_link_json(const std::string& a, const std::string& b, int lanes) {
  return {{"a", a}, {"b", b}, {"pcie", {{"gen", 5}, {"lanes", lanes}}}};
}

}  // namespace

ClusterTopology cluster_topology(const ClusterSpec& c, const std::string& option) {
  if (c.gpus() > kChunkClusterMaxGpus)
    throw InputError("", option,
                     fmt::format("the cluster {} has {} GPUs: chunk fidelity builds every device and takes at most {} "
                                 "(use --fidelity flow)",
                                 c.name, c.gpus(), kChunkClusterMaxGpus));
  ClusterTopology out;
  Json devices = Json::array(), links = Json::array();
  Switches switches(devices);
  const ClusterFabric& f = c.fabric;
  const ClusterStorage& s = c.storage;
  const std::string spine = "spine";

  // The nodes: each a copy of the node topology, its first storage NICs cabled to leaves.
  const Json& node = c.nodes.node_topology;
  for (int n = 0; n < c.nodes.count; ++n) {
    const std::string prefix = fmt::format("n{}_", n);
    int nic_index = 0;
    std::vector<std::string> nics;
    for (Json d : node.value("devices", Json::array())) {
      const std::string id = d.value("id", ""), model = d.value("model", "");
      d["id"] = prefix + id;
      if (model == "gpu") out.rank_gpus.push_back(prefix + id);
      if (model == "nic" && nic_index++ < c.nodes.nics) {
        d["line_rate"] = link_rate(c.nodes.nic_bw);
        nics.push_back(prefix + id);
      }
      devices.push_back(std::move(d));
    }
    for (Json l : node.value("links", Json::array())) {
      l["a"] = prefix + l.value("a", "");
      l["b"] = prefix + l.value("b", "");
      links.push_back(std::move(l));
    }
    for (int p = 0; p < static_cast<int>(nics.size()); ++p) {
      links.push_back(ethernet(nics[static_cast<std::size_t>(p)] + ".net", switches.port(fmt::format("leaf{}", c.compute_leaf(n, p))),
                               c.nodes.nic_bw));
    }
  }
  // Every compute leaf's uplinks (one per spine plane) as one link to the folded spine.
  for (int leaf = 0; leaf < f.compute_leaves; ++leaf)
    links.push_back(ethernet(switches.port(fmt::format("leaf{}", leaf)), switches.port(spine), f.uplinks * f.link_bw));

  // Storage leaves: their ports spread over the planes.
  const int storage_links = c.storage_links_per_plane();
  for (int sl = 0; sl < s.storage_leaves; ++sl)
    links.push_back(ethernet(switches.port(fmt::format("sleaf{}", sl)), switches.port(spine),
                             static_cast<double>(f.uplinks) * storage_links * f.link_bw));

  // Storage servers (a small file or block server host; assumption as topologies/pfs-4oss.json's OSS).
  for (int v = 0; v < s.servers; ++v) {
    const std::string p = fmt::format("s{}_", v);
    devices.push_back({{"id", p + "cpu"}, {"model", "cpu_socket"}, {"cores", 32}, {"frequency", "2.4 GHz"},
                       {"memcpy_per_core", "10 GB/s"}});
    devices.push_back({{"id", p + "dram"}, {"model", "dram"}, {"bandwidth", "307 GB/s"}, {"capacity", "512 GiB"}});
    devices.push_back({{"id", p + "rc"}, {"model", "root_complex"}, {"root_ports", s.nics}, {"p2p_bandwidth", "40 GB/s"}});
    links.push_back({{"a", p + "cpu.fabric"}, {"b", p + "rc.cpu"}, {"fabric", {{"bandwidth", "200 GB/s"}, {"latency", "40 ns"}}}});
    links.push_back({{"a", p + "rc.mem"}, {"b", p + "dram.mc"}, {"fabric", {{"bandwidth", "307 GB/s"}, {"latency", "80 ns"}}}});
    for (int k = 0; k < s.nics; ++k) {
      const int on_switch = s.drives / s.nics + (k < s.drives % s.nics ? 1 : 0);  // drive d on switch d mod ports
      const std::string sw = fmt::format("{}sw{}", p, k), nic = fmt::format("{}nic{}", p, k);
      devices.push_back({{"id", sw}, {"model", "pcie_switch"}, {"preset", "pex89000"}, {"downstream_ports", 1 + on_switch}});
      devices.push_back({{"id", nic}, {"model", "nic"}, {"preset", "cx7_400g"}, {"line_rate", link_rate(s.nic_bw)}});
      links.push_back(pcie_link_json(fmt::format("{}rc.rp{}", p, k), sw + ".up", 16));
      links.push_back(pcie_link_json(sw + ".dn0", nic + ".up", 16));
      links.push_back(ethernet(nic + ".net", switches.port(fmt::format("sleaf{}", v / s.servers_per_leaf)), s.nic_bw));
    }
    for (int d = 0; d < s.drives; ++d) {
      const std::string id = fmt::format("{}nvme{}", p, d);
      devices.push_back({{"id", id}, {"model", "nvme_ssd"}, {"preset", "pm1743"},
                         {"write_bandwidth", link_rate(s.drive_write_bw)}, {"read_bandwidth", link_rate(s.drive_read_bw)}});
      links.push_back(pcie_link_json(fmt::format("{}sw{}.dn{}", p, d % s.nics, 1 + d / s.nics), id + ".up", 4));
      out.drives.push_back(id);
    }
  }
  switches.declare_all();

  out.topology = {{"name", c.name + "-chunk"},
                  {"description", fmt::format("the cluster {} built device by device for chunk fidelity", c.name)},
                  {"sources",
                   {fmt::format("nodes: {} copies of {}", c.nodes.count, c.nodes.topology),
                    "fabric: leaves and one spine switch; a leaf's uplinks to the spine planes folded into one link",
                    "storage servers: one 32-core socket, DRAM, a Gen5 switch per NIC port with that port and its share "
                    "of the drives (Samsung PM1743 at the description's drive rates); assumption as topologies/pfs-4oss.json"}},
                  {"devices", std::move(devices)},
                  {"links", std::move(links)}};
  return out;
}

}  // namespace iowall::plan
