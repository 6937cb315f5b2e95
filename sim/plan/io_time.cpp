#include "sim/plan/io_time.hpp"

#include "sim/plan/node_time.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace iowall::plan {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double rate_or_inf(double bw) { return bw > 0 ? bw : kInf; }
double secs(double bytes, double bw) { return bw > 0 && std::isfinite(bw) ? bytes / bw : 0.0; }

// Max-min fair level of the shared system: classes of `count` ranks with cap `cap`
// share `capacity`; the level lambda with sum(count * min(cap, lambda)) = capacity.
double fair_level(std::vector<std::pair<double, std::int64_t>> caps, double capacity) {
  if (!(capacity > 0) || !std::isfinite(capacity)) return kInf;
  std::sort(caps.begin(), caps.end());
  double used = 0;
  std::int64_t left = 0;
  for (const auto& c : caps) left += c.second;
  for (const auto& [cap, count] : caps) {
    const double level = (capacity - used) / static_cast<double>(left);
    if (level <= cap) return level;
    used += cap * static_cast<double>(count);
    left -= count;
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

RankLoad rank_load(const std::vector<std::int64_t>& bytes, int per_node) {
  RankLoad l;
  const int nodes = (static_cast<int>(bytes.size()) + per_node - 1) / per_node;
  std::vector<double> node_bytes(nodes, 0.0);
  std::vector<int> node_active(nodes, 0);
  for (size_t r = 0; r < bytes.size(); ++r) {
    const double b = static_cast<double>(bytes[r]);
    l.total += b;
    l.rank_max = std::max(l.rank_max, b);
    node_bytes[r / per_node] += b;
    node_active[r / per_node] += bytes[r] > 0;
  }
  for (double b : node_bytes) l.node_max = std::max(l.node_max, b);
  for (size_t r = 0; r < bytes.size(); ++r) {
    if (bytes[r] <= 0) continue;
    ++l.active;
    const double b = static_cast<double>(bytes[r]);
    const int a = node_active[r / per_node];
    auto it = std::find_if(l.classes.begin(), l.classes.end(),
                           [&](const RankLoad::Class& c) { return c.bytes == b && c.node_active == a; });
    if (it == l.classes.end()) l.classes.push_back({b, a, 1});
    else ++it->count;
  }
  return l;
}

Phase transfer(const PlanInput& in, const RankLoad& l, Direction dir, const Stages& st) {
  if (in.node_sim) return node_transfer(in, l, dir, st);
  const NodeSpec& n = in.node;
  const StorageTarget& s = in.storage;
  const bool save = dir == Direction::save;
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

  const double fixed = barrier_time(in, l.active) + (st.io ? s.file_latency : 0.0);
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
  std::vector<std::pair<double, std::int64_t>> io_caps;
  for (const RankLoad::Class& c : l.classes) {
    const double w = c.node_active;
    io_caps.push_back({std::min({rate_or_inf(node_bw) / w, rate_or_inf(client),
                                 st.io_via_gpu ? rate_or_inf(n.gpu_link_bw) : rate_or_inf(n.host_mem_bw) / w}),
                       c.count});
  }
  const double level = st.io ? fair_level(io_caps, agg_bw) : kInf;
  double first = kInf;
  for (size_t k = 0; k < l.classes.size(); ++k) {
    const double b = l.classes[k].bytes;
    const double host_share = rate_or_inf(n.host_mem_bw) / l.classes[k].node_active;
    std::vector<double> t;
    if (st.gpu_copy) t.push_back(b / std::min(rate_or_inf(copy_bw), host_share));
    if (st.memcpys > 0) t.push_back(st.memcpys * b / std::min(rate_or_inf(n.memcpy_bw), host_share / 2));
    if (st.io) t.push_back(b / std::min(io_caps[k].first, level));
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
