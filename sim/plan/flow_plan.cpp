#include "sim/plan/flow_plan.hpp"
#include "sim/core/interrupt.hpp"

#include <cmath>

#include "sim/run/flow_solver.hpp"

namespace iowall::plan {

Phase flow_transfer(const PlanInput& in, const std::vector<std::int64_t>& rank_bytes, Direction dir, const Stages& st) {
  const int gpn = in.par.gpus_per_node;
  Stages other = st;
  other.io = false;
  // Closed forms for the copy stages (and the barrier); the storage I/O as flows.
  Phase ph = transfer(in, rank_load(rank_bytes, gpn), dir, other);
  if (!st.io) return ph;
  const bool save = dir == Direction::save;
  const StorageTarget& s = in.storage;
  const double node_bw = save ? s.node_write_bw : s.node_read_bw;
  const double agg_bw = save ? s.write_bw : s.read_bw;
  const int nodes = (in.par.gpus + gpn - 1) / gpn;
  const int leaves = (nodes + in.fabric.nodes_per_leaf - 1) / std::max(1, in.fabric.nodes_per_leaf);
  const int servers = s.server_write_bw > 0 && agg_bw > 0 ? static_cast<int>(std::ceil(agg_bw / s.server_write_bw)) : 0;

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
  const double client = s.client_cap();
  double bytes = 0;
  std::int64_t writer = 0;
  for (std::size_t r = 0; r < rank_bytes.size(); ++r) {
    if ((r & 0xFFF) == 0) throw_if_interrupted();
    if (rank_bytes[r] <= 0) continue;
    const int n = static_cast<int>(r) / gpn;
    flow::Flow f;
    f.bytes = static_cast<double>(rank_bytes[r]);
    f.cap = st.io_via_gpu ? in.node.gpu_link_bw : 0;
    if (client > 0) f.cap = f.cap > 0 ? std::min(f.cap, client) : client;
    f.path = {node_link[n], leaf[n / in.fabric.nodes_per_leaf], aggregate};
    if (!st.io_via_gpu) f.path.push_back(host_mem[n]);  // the NIC's DMA crosses host memory
    if (servers > 0) f.path.push_back(server[writer % servers]);  // files spread round-robin
    fs.add_flow(std::move(f));
    bytes += static_cast<double>(rank_bytes[r]);
    ++writer;
  }
  const flow::FlowResult res = fs.run();
  const double fixed = s.file_latency;
  ph.terms.push_back({"flow-level storage I/O (last rank)", res.last_done});
  if (res.last_done > ph.last_done) ph.bottleneck = res.bottleneck + " (flow)";
  ph.first_done = ph.first_done + fixed + res.first_done;
  ph.last_done = ph.last_done + fixed + res.last_done;
  ph.bytes = bytes;
  return ph;
}

PlanResult plan_flow(const PlanInput& in) {
  const checkpoint::ShardPlan sh = checkpoint::shard(in.state, in.par);
  return plan_with(in, sh, [&](Direction dir, const Stages& st) {
    return flow_transfer(in, dir == Direction::save ? sh.save_bytes : sh.restore_bytes, dir, st);
  });
}

namespace {
const bool registered = [] {
  register_solver("flow", plan_flow);
  return true;
}();
}  // namespace

}  // namespace iowall::plan
