#include "sim/plan/plan_request.hpp"

#include "sim/config/json_limits.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <filesystem>

#include <fmt/format.h>

#include "sim/config/json_fields.hpp"
#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/plan/node_rates.hpp"

namespace iowall::plan {

const std::map<std::string, std::string>& setting_keys() {
  static const std::map<std::string, std::string> k{
      {"params", "parameter count, e.g. 405e9 or 405B"},
      {"model", "a published model shape whose parameter count is used instead of --params (llama3-8b, ...)"},
      {"checkpoint_size", "total checkpoint size instead of --params, e.g. \"50 TB\""},
      {"gpus", "number of GPUs"},
      {"gpus_per_node", "GPUs per node (default 8)"},
      {"tp", "tensor-parallel degree"},
      {"pp", "pipeline-parallel degree"},
      {"dp", "data-parallel degree (default gpus / (tp x pp))"},
      {"zero", "ZeRO stage 0-3"},
      {"precision", "bf16, fp16, fp32 or fp8 weights"},
      {"optimizer", "adam, adamw, sgd-momentum, sgd or none"},
      {"master", "fp32 master copy: auto, fp32 or none"},
      {"save_gradients", "gradients are saved too"},
      {"replicated", "who writes the state every data-parallel replica holds: rank0 (DP rank 0 of each group, the "
                     "default) or spread (a share each); with --restore read-once-broadcast the same ranks read it back"},
      {"restore", "how a restore reads replicated state: read-all (every replica reads all it holds, the default) or "
                  "read-once-broadcast (each byte read once, then broadcast over the compute fabric)"},
      {"target", "local-nvme, nvme-of, pfs or object"},
      {"storage_bw", "aggregate storage write bandwidth"},
      {"storage_read_bw", "aggregate storage read bandwidth"},
      {"node_bw", "one node's storage write bandwidth"},
      {"node_read_bw", "one node's storage read bandwidth"},
      {"client_bw", "one rank's storage client ceiling"},
      {"request_latency", "one storage request's latency"},
      {"io_size", "bytes per storage request"},
      {"queue_depth", "storage requests in flight per rank"},
      {"file_latency", "create + commit of one rank's file"},
      {"capacity", "storage capacity"},
      {"server_bw", "write bandwidth of one storage server (SSD for local-nvme), for counts"},
      {"nodes_per_leaf", "GPU nodes under one leaf switch (flow fidelity)"},
      {"leaf_uplink_bw", "a leaf switch's bandwidth to the spine (flow fidelity; default non-blocking)"},
      {"path", "gds, bounce or buffered (with --node: cuFileWrite; pinned buffers + O_DIRECT; the framework default)"},
      {"levers", "with --cluster: what one more storage server, drive per server, NIC port per server or uplink per "
                 "leaf saves, ranked by save time per part"},
      {"cluster", "a cluster description (clusters/*.json): node type and count, a leaf/spine fabric, storage servers; "
                  "the flow and chunk fidelities simulate every rank's route through it"},
      {"node", "one node's topology (a shipped name, a file, discovered or calibrated): save and restore rates from "
               "its simulation at chunk fidelity (the hand node flags override it)"},
      {"node_sample", "with --node: bytes each GPU saves and restores in the node's simulation (default 1 GiB)"},
      {"bounce_copies", "CPU copies per byte on the bounce path"},
      {"bounce_pipelined", "bounce stages overlap"},
      {"gpu_link_bw", "one GPU's PCIe link (GDS ceiling)"},
      {"gpu_fabric_bw", "one GPU's link into the compute fabric, for the broadcast of --restore read-once-broadcast "
                        "(default 50 GB/s; a --cluster's node NICs shared by its GPUs)"},
      {"d2h_bw", "copy engine GPU -> host"},
      {"h2d_bw", "copy engine host -> GPU"},
      {"host_mem_bw", "one node's host memory bandwidth"},
      {"memcpy_bw", "one CPU thread's memcpy bandwidth"},
      {"host_mem", "one node's host memory capacity"},
      {"hbm", "one GPU's HBM capacity"},
      {"async", "copy to host memory, flush while training resumes"},
      {"interval", "training time between checkpoints (default: Daly's optimum)"},
      {"barrier", "barrier time before a save"},
      {"mttf", "mean time to failure of one accelerator"},
      {"cluster_mtbf", "mean time between failures of the whole job instead of --mttf (MTTF = this x GPUs), e.g. \"14.7 min\""},
      {"restart", "time to restart after a failure, beside the restore"},
      {"cluster_power", "power drawn by the cluster"},
      {"target_overhead", "inverse query: storage bandwidth for this overhead, e.g. 5%"},
      {"window", "inverse query: largest model whose save fits this time"},
      {"fidelity", "analytical (closed forms), flow (every rank a flow along its route) or chunk (a --cluster of at most 256 "
                   "GPUs built device by device and simulated I/O by I/O: slow, for cross-checks)"}};
  return k;
}

bool parse_long_time(const std::string& text, double& seconds, std::string& error) {
  Time t;
  const ParseResult direct = parse_time(text, t);
  if (direct.ok) {
    seconds = t.seconds();
    return true;
  }
  // Past +-106 days the picosecond integer overflows: parse the number as seconds and
  // the unit on its own, then multiply.
  size_t i = text.size();
  while (i > 0 && std::isalpha(static_cast<unsigned char>(text[i - 1]))) --i;
  const std::string number = text.substr(0, i), unit = text.substr(i);
  Time value, one;
  if (unit.empty() || !parse_time(number + "s", value).ok || !parse_time("1 " + unit, one).ok) {
    error = direct.error;
    return false;
  }
  seconds = value.seconds() * one.seconds();
  return true;
}

namespace {

using nlohmann::json;

// The command-line flag of a setting: storage_bw -> --storage-bw.
std::string flag(const std::string& key) {
  std::string f = "--" + key;
  std::replace(f.begin(), f.end(), '_', '-');
  return f;
}

// The plan's flat settings, read through the shared field reader: each error names the
// flag or FILE#/plan/key its setting came from. The reads below it parse what a flag
// may hold (numbers as text, counts with suffixes, percentages, long times).
struct Reader {
  const json& s;
  JsonFields f;
  Reader(const json& settings, const std::map<std::string, std::string>& origin) : s(settings), f(settings, origin) {}

  bool has(const std::string& k) const { return s.contains(k) && !s[k].is_null(); }
  [[noreturn]] void fail(const std::string& k, const std::string& msg) const { f.fail(k, msg); }
  std::string text(const std::string& k) const { return f.required_text(k); }
  // A quantity with its unit: a string, never a bare number.
  template <typename T>
  T unit(const std::string& k, ParseResult (*parse)(std::string_view, T&)) const {
    return f.quantity<T>(k, parse);
  }
  double bw(const std::string& k) const { return f.positive_bandwidth(k); }
  double bytes(const std::string& k) const { return unit<Bytes>(k, parse_bytes).bytes_value(); }
  double time(const std::string& k) const {
    if (!s[k].is_string()) fail(k, fmt::format("{} is a bare number: give it with its unit", quote_json(s[k])));
    double v;
    std::string err;
    if (!parse_long_time(text(k), v, err)) fail(k, err);
    return v;
  }
  double number(const std::string& k) const {
    if (s[k].is_number()) return s[k].get<double>();
    if (s[k].is_string()) {
      const std::string t = text(k);
      char* end = nullptr;
      const double v = std::strtod(t.c_str(), &end);
      if (end != t.c_str() && *end == '\0' && std::isfinite(v)) return v;
    }
    fail(k, fmt::format("{} is not a number (expected e.g. 405e9)", quote_json(s[k])));
  }
  // A count that may carry a suffix people write model sizes with: 70B, 1.2T, 350M, 7K.
  double count(const std::string& k) const {
    if (s[k].is_string()) {
      const std::string t = text(k);
      char* end = nullptr;
      const double v = std::strtod(t.c_str(), &end);
      const std::string suffix = end ? std::string(end) : std::string();
      const double scale = suffix == "K" ? 1e3 : suffix == "M" ? 1e6 : suffix == "B" ? 1e9 : suffix == "T" ? 1e12 : 0;
      if (end != t.c_str() && scale > 0 && std::isfinite(v)) return v * scale;
    }
    try {
      return number(k);
    } catch (const InputError&) {
      fail(k, fmt::format("{} is not a parameter count (expected e.g. 405e9 or 405B)", quote_json(s[k])));
    }
  }
  int integer(const std::string& k, int lo, int hi) const {
    const double v = number(k);
    if (v != std::floor(v) || v < lo || v > hi) fail(k, fmt::format("{} is not a whole number from {} to {}", quote_json(s[k]), lo, hi));
    return static_cast<int>(v);
  }
  bool boolean(const std::string& k) const {
    if (s[k].is_boolean()) return s[k].get<bool>();
    if (s[k].is_string() && (text(k) == "true" || text(k) == "false")) return text(k) == "true";
    fail(k, fmt::format("{} is not true or false", quote_json(s[k])));
  }
  double percent(const std::string& k) const {
    const std::string t = s[k].is_string() ? text(k) : "";
    if (t.empty() || t.back() != '%') fail(k, fmt::format("{} is not a percentage (expected e.g. \"5%\")", quote_json(s[k])));
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end == t.c_str() || std::string(end) != "%" || !(v > 0 && v < 100))
      fail(k, fmt::format("\"{}\" is not a percentage between 0% and 100%", t));
    return v / 100.0;
  }
};

}  // namespace


PlanRequest request_from_settings(const json& settings, const std::map<std::string, std::string>& origin,
                                  const NodeSimulator& node_simulator, const ClusterEdit& cluster_edit) {
  Reader rd{settings, origin};
  for (const auto& [k, v] : settings.items())
    if (!setting_keys().count(k)) rd.fail(k, fmt::format("unknown setting \"{}\"", k));
  PlanRequest q;
  q.settings = settings;
  PlanInput& in = q.input;
  auto& st = in.state;
  auto& par = in.par;

  // Choice parsers throw with a message; re-thrown here so the error names the origin.
  auto choice = [&](const std::string& k, auto parse) {
    try {
      return parse(rd.text(k), "");
    } catch (const InputError& e) {
      rd.fail(k, e.message());
    }
  };
  if (rd.has("precision")) st.precision = choice("precision", checkpoint::parse_precision);
  if (rd.has("optimizer")) st.optimizer = choice("optimizer", checkpoint::parse_optimizer);
  st.master_copy = st.optimizer != checkpoint::Optimizer::none;  // auto: mixed precision keeps fp32 masters
  if (rd.has("master")) {
    const std::string m = rd.text("master");
    if (m == "fp32") st.master_copy = true;
    else if (m == "none") st.master_copy = false;
    else if (m != "auto") rd.fail("master", fmt::format("\"{}\" is not auto, fp32 or none", m));
  }
  if (rd.has("save_gradients")) st.save_gradients = rd.boolean("save_gradients");

  if (rd.has("path")) {
    const std::string p = rd.text("path");
    if (p != "gds" && p != "bounce" && p != "buffered")
      rd.fail("path", fmt::format("\"{}\" is not a path (expected gds, bounce or buffered)", quote_text(p, 40)));
    in.path = p == "gds" ? IoPath::gds : p == "bounce" ? IoPath::bounce : IoPath::buffered;
  }
  if (rd.has("node_sample") && !rd.has("node")) rd.fail("node_sample", "applies with --node only");
  if (rd.has("node")) {
    const std::string node = rd.text("node");
    if (node.empty()) rd.fail("node", "names no topology");
    double sample = 1024.0 * 1024 * 1024;
    if (rd.has("node_sample")) {
      sample = rd.bytes("node_sample");
      if (!(sample >= 1024 * 1024)) rd.fail("node_sample", "must be at least 1 MiB");
    }
    if (rd.has("target") && rd.text("target") != "local-nvme")
      rd.fail("target", "--node simulates the node's own drives: the target is local-nvme (leave --target out)");
    if (rd.has("async") && rd.boolean("async")) rd.fail("async", "is not simulated with --node (a synchronous save only)");
    if (rd.has("fidelity") && rd.text("fidelity") != "analytical")
      rd.fail("fidelity", "--node answers at the analytical level from the node's simulation (leave --fidelity out)");
    try {
      in.node_sim = node_simulator ? node_simulator(node, in.path, sample) : simulate_node(node, in.path, sample);
    } catch (const InputError& e) {
      rd.fail("node", e.message());
    }
  }

  if (rd.has("cluster")) {
    for (const char* k : {"node", "target", "storage_bw", "storage_read_bw", "node_bw", "node_read_bw", "nodes_per_leaf",
                          "leaf_uplink_bw", "server_bw", "gpu_fabric_bw"})
      if (rd.has(k)) rd.fail(k, "the cluster description sets this: edit the description (or leave --cluster out)");
    const auto it = origin.find("cluster");
    const std::string from = it == origin.end() ? std::string() : it->second.substr(0, it->second.find('#'));
    const std::string dir = from.rfind("--", 0) == 0 ? std::string() : std::filesystem::path(from).parent_path().string();
    // Described inline (at its file and pointer), or a file of its own.
    const auto hash = it == origin.end() ? std::string::npos : it->second.find('#');
    const std::string file = hash == std::string::npos ? std::string("--cluster") : it->second.substr(0, hash);
    const std::string base = hash == std::string::npos ? std::string() : it->second.substr(hash + 1);
    ClusterSpec c = settings["cluster"].is_object() ? cluster_from_json(settings["cluster"], file, dir, base)
                                                    : load_cluster(rd.text("cluster"), dir);
    if (cluster_edit) cluster_edit(c);
    in.cluster = std::make_shared<const ClusterSpec>(std::move(c));
  }
  if (!rd.has("gpus") && !in.cluster) rd.fail("gpus", "the number of GPUs is required");
  par.gpus = rd.has("gpus") ? rd.integer("gpus", 1, 1 << 24) : in.cluster->gpus();
  if (in.cluster && par.gpus > in.cluster->gpus())
    rd.fail("gpus", fmt::format("is {} but the cluster {} has {}", par.gpus, in.cluster->name, in.cluster->gpus()));
  if (in.node_sim) par.gpus_per_node = in.node_sim->gpus;
  if (in.cluster) par.gpus_per_node = in.cluster->nodes.gpus;
  if (rd.has("gpus_per_node")) {
    par.gpus_per_node = rd.integer("gpus_per_node", 1, 1024);
    if (in.cluster && par.gpus_per_node != in.cluster->nodes.gpus)
      rd.fail("gpus_per_node", fmt::format("is {} but the cluster's nodes ({}) have {}", par.gpus_per_node,
                                           in.cluster->nodes.topology, in.cluster->nodes.gpus));
    if (in.node_sim && par.gpus_per_node != in.node_sim->gpus)
      rd.fail("gpus_per_node", fmt::format("is {} but the node {} has {} GPU{}", par.gpus_per_node,
                                           in.node_sim->topology, in.node_sim->gpus, in.node_sim->gpus == 1 ? "" : "s"));
  }
  if (rd.has("tp")) par.tp = rd.integer("tp", 1, 1 << 24);
  if (rd.has("pp")) par.pp = rd.integer("pp", 1, 1 << 24);
  if (rd.has("zero")) par.zero = rd.integer("zero", 0, 3);
  if (rd.has("replicated")) par.replicated = choice("replicated", checkpoint::parse_replicated);
  if (rd.has("restore")) in.restore = choice("restore", parse_restore_mode);
  if (rd.has("dp")) {
    par.dp = rd.integer("dp", 1, 1 << 24);
  } else {
    if (par.gpus % (par.tp * par.pp) != 0)
      rd.fail("tp", fmt::format("tp x pp = {} x {} does not divide --gpus {}", par.tp, par.pp, par.gpus));
    par.dp = par.gpus / (par.tp * par.pp);
  }
  checkpoint::validate(par);

  const checkpoint::BytesPerParam bpp = checkpoint::bytes_per_param(st);
  if (int(rd.has("params")) + int(rd.has("checkpoint_size")) + int(rd.has("model")) != 1)
    rd.fail(rd.has("model") ? "model" : "params", "give one of --params, --model or --checkpoint-size");
  if (rd.has("params")) {
    const double p = rd.count("params");
    if (!(p >= 1 && p < 9e17)) rd.fail("params", fmt::format("{} is not a parameter count", quote_json(settings["params"])));
    st.params = static_cast<std::int64_t>(std::llround(p));
  } else if (rd.has("model")) {
    const checkpoint::Architecture* a = checkpoint::architecture(rd.text("model"));
    if (!a)
      rd.fail("model", fmt::format("\"{}\" is not a model shape iowall knows (known: {})", quote_text(rd.text("model"), 40),
                                   fmt::join(checkpoint::architecture_names(), ", ")));
    st.params = checkpoint::parameter_count(*a);
  } else {
    // A size given directly: the parameter count that makes it at these bytes per parameter.
    st.params = static_cast<std::int64_t>(std::llround(rd.bytes("checkpoint_size") / bpp.saved()));
    if (st.params < 1) rd.fail("checkpoint_size", "is smaller than one parameter's state");
  }

  if (rd.has("target")) in.storage = choice("target", [](const std::string& k, const std::string&) { return storage_preset(k); });
  if (in.node_sim) use_node_storage(in);
  if (in.cluster) in.storage = cluster_storage(*in.cluster);
  StorageTarget& t = in.storage;
  if (rd.has("storage_bw")) {
    if (t.write_bw <= 0) rd.fail("storage_bw", "local-nvme has no shared aggregate: set --node-bw");
    t.write_bw = rd.bw("storage_bw");
    t.read_bw = rd.has("storage_read_bw") ? rd.bw("storage_read_bw") : t.write_bw;
  } else if (rd.has("storage_read_bw")) {
    t.read_bw = rd.bw("storage_read_bw");
  }
  if (rd.has("node_bw")) {
    t.node_write_bw = rd.bw("node_bw");
    t.node_read_bw = rd.has("node_read_bw") ? rd.bw("node_read_bw") : std::max(t.node_read_bw, t.node_write_bw);
  } else if (rd.has("node_read_bw")) {
    t.node_read_bw = rd.bw("node_read_bw");
  }
  if (rd.has("client_bw")) t.client_bw = rd.bw("client_bw");
  if (rd.has("request_latency")) t.request_latency = rd.time("request_latency");
  if (rd.has("io_size")) {
    t.io_size = rd.bytes("io_size");
    if (t.io_size <= 0) rd.fail("io_size", "must be positive");
  }
  if (rd.has("queue_depth")) t.queue_depth = rd.integer("queue_depth", 1, 1 << 20);
  if (rd.has("file_latency")) t.file_latency = rd.time("file_latency");
  if (rd.has("capacity")) {
    t.capacity = rd.bytes("capacity");
    if (t.capacity <= 0) rd.fail("capacity", "must be positive");
    if (t.write_bw <= 0) t.capacity_per_node = t.capacity / ((par.gpus + par.gpus_per_node - 1) / par.gpus_per_node);
  }
  if (rd.has("server_bw")) q.server_bw = rd.bw("server_bw"), t.server_write_bw = q.server_bw;
  std::erase_if(t.spreads, [&](const PresetSpread& s) {
    return std::any_of(s.covers.begin(), s.covers.end(), [&](const std::string& k) { return rd.has(k); });
  });
  note_given_settings(t, [&](const std::string& k) -> std::string {
    if (!rd.has(k)) return "";
    const auto it = origin.find(k);
    return it != origin.end() ? it->second : flag(k);
  });

  if (rd.has("nodes_per_leaf")) in.fabric.nodes_per_leaf = rd.integer("nodes_per_leaf", 1, 1 << 20);
  if (rd.has("leaf_uplink_bw")) in.fabric.leaf_uplink_bw = rd.bw("leaf_uplink_bw");

  NodeSpec& n = in.node;
  NodeOverrides& over = in.node_overrides;
  over = {rd.has("node_bw"), rd.has("node_bw") || rd.has("node_read_bw"), rd.has("gpu_link_bw"),
          rd.has("memcpy_bw"), rd.has("d2h_bw"), rd.has("h2d_bw")};
  if (rd.has("bounce_copies")) n.bounce_copies = rd.integer("bounce_copies", 0, 8);
  if (rd.has("bounce_pipelined")) n.bounce_pipelined = rd.boolean("bounce_pipelined");
  if (rd.has("gpu_link_bw")) n.gpu_link_bw = rd.bw("gpu_link_bw");
  if (rd.has("gpu_fabric_bw")) n.fabric_bw = rd.bw("gpu_fabric_bw");
  // A described cluster's nodes share their NICs among their GPUs (GPU i uses NIC i mod NICs).
  if (in.cluster) n.fabric_bw = in.cluster->nodes.nic_bw * std::min(in.cluster->nodes.nics, in.cluster->nodes.gpus) / in.cluster->nodes.gpus;
  if (rd.has("d2h_bw")) n.d2h_bw = rd.bw("d2h_bw");
  if (rd.has("h2d_bw")) n.h2d_bw = rd.bw("h2d_bw");
  if (rd.has("host_mem_bw")) n.host_mem_bw = rd.bw("host_mem_bw");
  if (rd.has("memcpy_bw")) n.memcpy_bw = rd.bw("memcpy_bw");
  if (rd.has("host_mem")) n.host_mem_capacity = rd.bytes("host_mem");
  if (rd.has("hbm")) n.hbm_capacity = rd.bytes("hbm");
  if (rd.has("async")) in.async = rd.boolean("async");

  if (rd.has("interval") && !(settings["interval"].is_string() && rd.text("interval") == "optimal")) {
    in.interval = rd.time("interval");
    if (in.interval <= 0) rd.fail("interval", "must be positive (or \"optimal\")");
  }
  if (rd.has("barrier")) in.barrier = rd.time("barrier");
  if (rd.has("mttf") && rd.has("cluster_mtbf"))
    rd.fail("cluster_mtbf", "give --mttf (per GPU) or --cluster-mtbf (the whole job), not both");
  if (rd.has("mttf")) {
    in.mttf = rd.time("mttf");
    if (!(in.mttf > 0)) rd.fail("mttf", "the MTTF must be positive (an MTTF of zero means the job never runs)");
  }
  if (rd.has("cluster_mtbf")) {
    // Independent failures: the job fails when any of its GPUs does, so MTBF = MTTF / GPUs.
    const double mtbf = rd.time("cluster_mtbf");
    if (!(mtbf > 0)) rd.fail("cluster_mtbf", "the MTBF must be positive (an MTBF of zero means the job never runs)");
    in.mttf = mtbf * in.par.gpus;
  }
  if (rd.has("restart")) in.restart = rd.time("restart");
  if (rd.has("cluster_power")) {
    const Power p = rd.unit<Power>("cluster_power", parse_power);
    if (!p.is_positive()) rd.fail("cluster_power", "must be positive");
    in.cluster_power = p.watts();
  }
  if (rd.has("target_overhead")) q.target_overhead = rd.percent("target_overhead");
  if (rd.has("window")) {
    q.window = rd.time("window");
    if (!(*q.window > 0)) rd.fail("window", "must be positive");
  }
  if (rd.has("fidelity")) q.fidelity = rd.text("fidelity");
  if (rd.has("levers") && rd.boolean("levers")) {
    if (!q.input.cluster) rd.fail("levers", "ranks the parts of a described cluster: give --cluster");
    q.levers = true;
  }
  return q;
}

json settings_from_file(const std::string& file, const std::vector<std::string>& overrides,
                        std::map<std::string, std::string>& origin, std::string& name) {
  JsonDocument doc = load_json(file);
  for (const std::string& o : overrides) apply_override(doc.json, o, "--set");
  for (const auto& [k, v] : doc.json.items())
    if (k != "name" && k != "description" && k != "plan")
      throw InputError(doc.name, "/" + k, fmt::format("unknown key \"{}\" (expected name, description, plan)", quote_text(k, 60)));
  if (!doc.json.contains("plan") || !doc.json["plan"].is_object())
    throw InputError(doc.name, "/plan", "a checkpoint scenario needs a \"plan\" object");
  if (doc.json.contains("name") && doc.json["name"].is_string()) name = doc.json["name"].get<std::string>();
  json settings = json::object();
  for (const auto& [k, v] : doc.json["plan"].items()) {
    settings[k] = v;
    origin[k] = doc.name + "#/plan/" + k;
  }
  return settings;
}

}  // namespace iowall::plan
