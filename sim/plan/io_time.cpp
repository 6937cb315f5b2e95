#include "sim/plan/io_time.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace iowall::plan {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double rate_or_inf(double bw) { return bw > 0 ? bw : kInf; }
double secs(double bytes, double bw) { return bw > 0 && std::isfinite(bw) ? bytes / bw : 0.0; }

struct Load {
  double total = 0, rank_max = 0, node_max = 0;
  std::vector<double> node_bytes;
  std::vector<int> node_active;  // ranks with bytes, per node
};

Load load_of(const std::vector<std::int64_t>& bytes, int per_node) {
  Load l;
  const int nodes = (static_cast<int>(bytes.size()) + per_node - 1) / per_node;
  l.node_bytes.assign(nodes, 0.0);
  l.node_active.assign(nodes, 0);
  for (size_t r = 0; r < bytes.size(); ++r) {
    const double b = static_cast<double>(bytes[r]);
    l.total += b;
    l.rank_max = std::max(l.rank_max, b);
    l.node_bytes[r / per_node] += b;
    l.node_active[r / per_node] += bytes[r] > 0;
  }
  for (double b : l.node_bytes) l.node_max = std::max(l.node_max, b);
  return l;
}

// Max-min fair level of the shared system: ranks with caps `caps` share `capacity`;
// returns the level lambda with sum(min(cap, lambda)) = capacity (inf if not binding).
double fair_level(std::vector<double> caps, double capacity) {
  if (!(capacity > 0) || !std::isfinite(capacity)) return kInf;
  std::sort(caps.begin(), caps.end());
  double used = 0;
  for (size_t i = 0; i < caps.size(); ++i) {
    const double left = static_cast<double>(caps.size() - i);
    const double level = (capacity - used) / left;
    if (level <= caps[i]) return level;
    used += caps[i];
  }
  return kInf;
}

}  // namespace

Stages save_stages(const PlanInput& in) {
  if (in.path == IoPath::gds) return {false, 0, true, true};
  return {true, in.node.bounce_copies, true, false};
}
Stages restore_stages(const PlanInput& in) { return save_stages(in); }
Stages copy_stages(const PlanInput&) { return {true, 0, false, false}; }
Stages flush_stages(const PlanInput& in) { return {false, in.node.bounce_copies, true, false}; }

double barrier_time(const PlanInput& in, int ranks) {
  if (in.barrier >= 0) return in.barrier;
  // A dissemination barrier needs ceil(log2 N) rounds; 10 us per round across the
  // fabric including software is an assumption.
  return std::ceil(std::log2(std::max(2, ranks))) * 10e-6;
}

Phase transfer(const PlanInput& in, const std::vector<std::int64_t>& rank_bytes, Direction dir, const Stages& st) {
  const NodeSpec& n = in.node;
  const StorageTarget& s = in.storage;
  const bool save = dir == Direction::save;
  const Load l = load_of(rank_bytes, in.par.gpus_per_node);
  const double copy_bw = save ? n.d2h_bw : n.h2d_bw;
  const double node_bw = save ? s.node_write_bw : s.node_read_bw;
  const double agg_bw = save ? s.write_bw : s.read_bw;
  const double client = s.client_cap();

  Phase ph;
  ph.bytes = l.total;
  if (l.total <= 0) return ph;
  // Each stage: its lower bounds (name, seconds). Host memory is crossed once by a DMA
  // (copy engine or NIC) and twice (read + write) by each CPU copy.
  struct Stage {
    std::vector<Phase::Term> terms;
  };
  std::vector<Stage> stages;
  if (st.gpu_copy && save) {
    stages.push_back({{{"GPU copy engine", secs(l.rank_max, copy_bw)},
                       {"host memory bandwidth", secs(l.node_max, n.host_mem_bw)}}});
  }
  if (st.memcpys > 0 && save) {
    stages.push_back({{{"CPU memcpy (one thread per rank)", secs(st.memcpys * l.rank_max, n.memcpy_bw)},
                       {"host memory bandwidth", secs(2.0 * st.memcpys * l.node_max, n.host_mem_bw)}}});
  }
  if (st.io) {
    Stage io;
    if (st.io_via_gpu) io.terms.push_back({"GPU PCIe link (GDS)", secs(l.rank_max, n.gpu_link_bw)});
    else io.terms.push_back({"host memory bandwidth", secs(l.node_max, n.host_mem_bw)});
    if (client > 0) io.terms.push_back({"storage client per rank", secs(l.rank_max, client)});
    io.terms.push_back({"node storage link", secs(l.node_max, node_bw)});
    if (agg_bw > 0) io.terms.push_back({"storage system aggregate", secs(l.total, agg_bw)});
    stages.push_back(io);
  }
  if (st.memcpys > 0 && !save) {
    stages.push_back({{{"CPU memcpy (one thread per rank)", secs(st.memcpys * l.rank_max, n.memcpy_bw)},
                       {"host memory bandwidth", secs(2.0 * st.memcpys * l.node_max, n.host_mem_bw)}}});
  }
  if (st.gpu_copy && !save) {
    stages.push_back({{{"GPU copy engine", secs(l.rank_max, copy_bw)},
                       {"host memory bandwidth", secs(l.node_max, n.host_mem_bw)}}});
  }

  int ranks = 0;
  for (int a : l.node_active) ranks += a;
  const double fixed = barrier_time(in, ranks) + (st.io ? s.file_latency : 0.0);
  const bool pipelined = n.bounce_pipelined && stages.size() > 1;
  double body = 0, worst = -1;
  if (pipelined) {
    // Stages overlap: every resource carries all its stages' load at once.
    double host = 0;
    for (const Stage& stg : stages)
      for (const Phase::Term& t : stg.terms) {
        if (t.name == "host memory bandwidth") host += t.seconds;
        else ph.terms.push_back(t);
      }
    ph.terms.push_back({"host memory bandwidth", host});
    for (const Phase::Term& t : ph.terms)
      if (t.seconds > body) body = t.seconds, ph.bottleneck = t.name;
  } else {
    // Stages run one after another; the phase's bottleneck is the largest stage's.
    for (const Stage& stg : stages) {
      double m = 0;
      std::string who;
      for (const Phase::Term& t : stg.terms) {
        ph.terms.push_back(t);
        if (t.seconds > m) m = t.seconds, who = t.name;
      }
      body += m;
      if (m > worst) worst = m, ph.bottleneck = who;
    }
  }
  ph.last_done = fixed + body;

  // First-done: each rank at the max-min fair shares of the start.
  std::vector<double> io_caps;
  std::vector<size_t> idx;
  for (size_t r = 0; r < rank_bytes.size(); ++r) {
    if (rank_bytes[r] <= 0) continue;
    const double w = l.node_active[r / in.par.gpus_per_node];
    double cap = std::min({rate_or_inf(node_bw) / w, rate_or_inf(client),
                           st.io_via_gpu ? rate_or_inf(n.gpu_link_bw) : rate_or_inf(n.host_mem_bw) / w});
    io_caps.push_back(cap);
    idx.push_back(r);
  }
  const double level = st.io ? fair_level(io_caps, agg_bw) : kInf;
  double first = kInf;
  for (size_t k = 0; k < idx.size(); ++k) {
    const double b = static_cast<double>(rank_bytes[idx[k]]);
    const double w = l.node_active[idx[k] / in.par.gpus_per_node];
    const double host_share = rate_or_inf(n.host_mem_bw) / w;
    std::vector<double> t;
    if (st.gpu_copy) t.push_back(b / std::min(rate_or_inf(copy_bw), host_share));
    if (st.memcpys > 0) t.push_back(st.memcpys * b / std::min(rate_or_inf(n.memcpy_bw), host_share / 2));
    if (st.io) t.push_back(b / std::min(io_caps[k], level));
    double v = 0;
    for (double x : t) v = pipelined ? std::max(v, x) : v + x;
    first = std::min(first, v);
  }
  // The closed-form last-done is a bound that a rate-proportional schedule reaches; a
  // fair-share start never makes a rank finish after it.
  ph.first_done = std::min(fixed + (std::isfinite(first) ? first : 0.0), ph.last_done);
  return ph;
}

}  // namespace iowall::plan
