#include "sim/plan/flow_plan.hpp"
#include "sim/core/interrupt.hpp"

#include <cmath>

#include "sim/plan/cluster.hpp"
#include "sim/run/flow_solver.hpp"

namespace iowall::plan {

namespace {
// A rank's own ceiling on its storage flow: its GPU link (GDS) and its storage client's.
double rank_cap(const PlanInput& in, const Stages& st) {
  const double client = in.storage.client_cap();
  const double cap = st.io_via_gpu ? in.node.gpu_link_bw : 0;
  if (client > 0) return cap > 0 ? std::min(cap, client) : client;
  return cap;
}

Phase with_flows(Phase ph, const flow::FlowResult& res, double bytes, double file_latency, const char* term,
                 const std::string& bottleneck) {
  return with_storage_io(std::move(ph), res.first_done, res.last_done, bytes, file_latency, term, bottleneck + " (flow)");
}

// Flows of a cluster that end within 0.1% of a step of each other end together: ECMP
// spreads tens of thousands of flows over links with slightly different loads.
constexpr double kClusterTolerance = 1e-3;

// The storage I/O of every rank as a flow along its route through the described cluster
// (sim/plan/cluster.hpp), resources made as routes first use them.
Phase cluster_storage_flows(const PlanInput& in, const std::vector<std::int64_t>& rank_bytes, Direction dir,
                            const Stages& st, Phase ph) {
  const ClusterSpec& c = *in.cluster;
  const bool save = dir == Direction::save;
  const int gpn = in.par.gpus_per_node;
  const int nics = c.nodes.nics, planes = c.fabric.uplinks;
  const ClusterStorage& s = c.storage;
  const int storage_links = c.storage_links_per_plane();
  constexpr std::uint32_t kNone = UINT32_MAX;
  flow::FlowSolver fs;
  const auto lazy = [&fs](std::vector<std::uint32_t>& ids, std::size_t i, const char* name, double cap) {
    if (ids[i] == kNone) ids[i] = fs.add_resource(name, cap);
    return ids[i];
  };
  std::vector<std::uint32_t> node_nic(static_cast<std::size_t>(c.nodes.count) * nics, kNone);
  std::vector<std::uint32_t> host_mem(static_cast<std::size_t>(c.nodes.count), kNone);
  std::vector<std::uint32_t> uplink(static_cast<std::size_t>(c.fabric.compute_leaves) * planes, kNone);
  std::vector<std::uint32_t> to_storage(static_cast<std::size_t>(planes) * s.storage_leaves, kNone);
  std::vector<std::uint32_t> server_nic(static_cast<std::size_t>(s.servers) * s.nics, kNone);
  std::vector<std::uint32_t> drives(static_cast<std::size_t>(s.servers), kNone);
  const double drive_bw = s.drives * (save ? s.drive_write_bw : s.drive_read_bw);
  const double cap = rank_cap(in, st);
  double bytes = 0;
  std::int64_t writer = 0;
  for (std::size_t r = 0; r < rank_bytes.size(); ++r) {
    if ((r & 0xFFF) == 0) throw_if_interrupted();
    if (rank_bytes[r] <= 0) continue;
    const int n = static_cast<int>(r) / gpn, port = static_cast<int>(r) % gpn % nics;
    const int leaf = c.compute_leaf(n, port);
    const int plane = static_cast<int>(ecmp_hash(r) % static_cast<std::uint64_t>(planes));
    const int server = static_cast<int>(writer % s.servers);
    const int server_port = static_cast<int>(writer / s.servers % s.nics);
    flow::Flow f;
    f.bytes = static_cast<double>(rank_bytes[r]);
    f.cap = cap;
    f.path = {lazy(node_nic, static_cast<std::size_t>(n) * nics + port, "node NIC", c.nodes.nic_bw),
              lazy(uplink, static_cast<std::size_t>(leaf) * planes + plane, "leaf uplink", c.fabric.link_bw),
              lazy(to_storage, static_cast<std::size_t>(plane) * s.storage_leaves + server / s.servers_per_leaf,
                   "spine to storage leaf", c.fabric.link_bw * storage_links),
              lazy(server_nic, static_cast<std::size_t>(server) * s.nics + server_port, "storage server NIC", s.nic_bw),
              lazy(drives, static_cast<std::size_t>(server), "storage server drives", drive_bw)};
    if (!st.io_via_gpu) f.path.push_back(lazy(host_mem, static_cast<std::size_t>(n), "host memory bandwidth", in.node.host_mem_bw));
    fs.add_flow(std::move(f));
    bytes += static_cast<double>(rank_bytes[r]);
    ++writer;
  }
  fs.set_time_tolerance(kClusterTolerance);
  const flow::FlowResult res = fs.run();
  const std::string bound = res.bottleneck == flow::kOwnCeiling ? "a rank's ceiling (GPU link or storage client)" : res.bottleneck;
  return with_flows(std::move(ph), res, bytes, in.storage.file_latency,
                    "flow-level storage I/O through the cluster (last rank)", bound);
}
}  // namespace

Phase with_storage_io(Phase ph, double first_done, double last_done, double bytes, double file_latency,
                      const std::string& term, const std::string& bottleneck) {
  ph.terms.push_back({term, last_done});
  if (last_done > ph.last_done) ph.bottleneck = bottleneck;
  ph.first_done = ph.first_done + file_latency + first_done;
  ph.last_done = ph.last_done + file_latency + last_done;
  ph.bytes = bytes;
  return ph;
}

Phase flow_transfer(const PlanInput& in, const std::vector<std::int64_t>& rank_bytes, Direction dir, const Stages& st) {
  const int gpn = in.par.gpus_per_node;
  Stages other = st;
  other.io = false;
  // Closed forms for the copy stages (and the barrier); the storage I/O as flows.
  Phase ph = transfer(in, rank_load(rank_bytes, gpn), dir, other);
  if (!st.io) return ph;
  if (in.cluster) return cluster_storage_flows(in, rank_bytes, dir, st, std::move(ph));
  const bool save = dir == Direction::save;
  const StorageTarget& s = in.storage;
  const double node_bw = save ? s.node_write_bw : s.node_read_bw;
  const double agg_bw = save ? s.write_bw : s.read_bw;
  const int nodes = (in.par.gpus + gpn - 1) / gpn;
  const int leaves = (nodes + in.fabric.nodes_per_leaf - 1) / std::max(1, in.fabric.nodes_per_leaf);
  const int servers = s.servers_for(agg_bw);

  flow::FlowSolver fs;
  std::vector<std::uint32_t> node_link(nodes), host_mem(nodes), leaf(leaves), server(servers);
  for (int n = 0; n < nodes; ++n) {
    node_link[n] = fs.add_resource("node storage link", node_bw);
    host_mem[n] = fs.add_resource("host memory bandwidth", in.node.host_mem_bw);
  }
  for (int l = 0; l < leaves; ++l) fs.add_resource("leaf uplink", in.fabric.leaf_uplink_bw), leaf[l] = static_cast<std::uint32_t>(fs.resources().size() - 1);
  const double per_server = servers > 0 ? agg_bw / servers : 0;
  for (int v = 0; v < servers; ++v) server[v] = fs.add_resource("storage server", per_server);
  const std::uint32_t aggregate = fs.add_resource("storage system aggregate", agg_bw);
  const double cap = rank_cap(in, st);
  double bytes = 0;
  std::int64_t writer = 0;
  for (std::size_t r = 0; r < rank_bytes.size(); ++r) {
    if ((r & 0xFFF) == 0) throw_if_interrupted();
    if (rank_bytes[r] <= 0) continue;
    const int n = static_cast<int>(r) / gpn;
    flow::Flow f;
    f.bytes = static_cast<double>(rank_bytes[r]);
    f.cap = cap;
    f.path = {node_link[n], leaf[n / in.fabric.nodes_per_leaf], aggregate};
    if (!st.io_via_gpu) f.path.push_back(host_mem[n]);  // the NIC's DMA crosses host memory
    if (servers > 0) f.path.push_back(server[writer % servers]);  // files spread round-robin
    fs.add_flow(std::move(f));
    bytes += static_cast<double>(rank_bytes[r]);
    ++writer;
  }
  const flow::FlowResult res = fs.run();
  return with_flows(std::move(ph), res, bytes, s.file_latency, "flow-level storage I/O (last rank)", res.bottleneck);
}

PlanResult plan_flow(const PlanInput& in) {
  const checkpoint::ShardPlan sh = checkpoint::shard(in.state, in.par);
  return plan_with(in, sh, [&](Direction dir, const Stages& st) {
    return flow_transfer(in, dir == Direction::save ? sh.save_bytes : restore_read_bytes(in.restore, sh), dir, st);
  });
}

namespace {
const bool flow_registered = [] {
  register_solver("flow", plan_flow);
  return true;
}();
}  // namespace

}  // namespace iowall::plan
