#include "sim/plan/plan_request.hpp"

#include "sim/config/json_limits.hpp"

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "sim/config/json_fields.hpp"
#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/quote.hpp"
#include "sim/core/units.hpp"
#include "sim/plan/node_rates.hpp"
#include "sim/plan/plan_text.hpp"
#include "sim/plan/settings_reader.hpp"

namespace iowall::plan {

using nlohmann::json;

PlanRequest request_from_settings(const json& settings, const std::map<std::string, std::string>& origin,
                                  const NodeSimulator& node_simulator, const ClusterEdit& cluster_edit) {
  SettingsReader rd{settings, origin};
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

  for (const char* k : {"tensor_size", "save_memory"})
    if (rd.has(k) && !(in.node_sim && in.path == IoPath::buffered)) rd.fail(k, "applies with --node and --path buffered only");
  if (in.node_sim && in.path == IoPath::buffered) {
    // The memory a periodic save copies into. allocator: glibc keeps a freed block below its
    // mmap threshold (at most 32 MiB) for the next allocation of its size and maps a larger one
    // anew; kept: the process holds every block the last save freed; new: it returns them (the
    // heap trimmed, or a framework that maps its own), so each save faults its copies in.
    const std::string memory = rd.has("save_memory") ? rd.text("save_memory") : "allocator";
    if (memory != "allocator" && memory != "kept" && memory != "new")
      rd.fail("save_memory", fmt::format("\"{}\" is not allocator, kept or new", quote_text(memory, 40)));
    if (memory != "allocator" && rd.has("tensor_size"))
      rd.fail("tensor_size", fmt::format("applies with --save-memory allocator, not {}", memory));
    if (memory == "kept") {
      in.new_memory_share = 0;
      in.new_memory_from = "--save-memory kept: the process holds what the last save freed";
    } else if (memory == "new") {
      in.new_memory_share = 1;
      in.new_memory_from = "--save-memory new: the process returns what a save frees (a trimmed heap)";
    } else if (rd.has("tensor_size")) {
      const double t = rd.bytes("tensor_size");
      if (!(t >= 1)) rd.fail("tensor_size", "must be at least 1 B");
      in.new_memory_share = t > kMallocReuseMax ? 1 : 0;
      in.new_memory_from = fmt::format("--tensor-size {} {} glibc's 32 MiB mmap threshold", bytes_text(t),
                                       t > kMallocReuseMax ? "over" : "within");
    } else if (rd.has("model")) {
      in.new_memory_share = checkpoint::share_above(*checkpoint::architecture(rd.text("model")), st, par, kMallocReuseMax);
      in.new_memory_from =
          fmt::format("{}'s tensors split over tp {}: the share over glibc's 32 MiB mmap threshold", rd.text("model"), par.tp);
    } else {
      in.new_memory_from = "no shape given: every tensor taken as over glibc's 32 MiB mmap threshold";
    }
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
