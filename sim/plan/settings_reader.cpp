#include "sim/plan/settings_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/quote.hpp"
#include "sim/plan/plan_request.hpp"

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
      {"tensor_size", "with --node and --path buffered: the size of the tensors a rank saves, which decides the memory "
                      "a periodic save copies into (glibc keeps a tensor's up to 32 MiB between saves, maps a larger "
                      "one anew); default: from --model's shape, else larger than 32 MiB"},
      {"save_memory", "with --node and --path buffered: the memory a periodic save copies into: allocator (the default: "
                      "by tensor size, glibc's 32 MiB mmap threshold), kept (every block the last save freed is still "
                      "mapped) or new (the process returns what a save frees, as a trimmed heap does: every save "
                      "faults its copies in)"},
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

std::string flag(const std::string& key) {
  std::string f = "--" + key;
  std::replace(f.begin(), f.end(), '_', '-');
  return f;
}

double SettingsReader::time(const std::string& k) const {
  if (!s[k].is_string()) fail(k, fmt::format("{} is a bare number: give it with its unit", quote_json(s[k])));
  double v;
  std::string err;
  if (!parse_long_time(text(k), v, err)) fail(k, err);
  return v;
}
double SettingsReader::number(const std::string& k) const {
  if (s[k].is_number()) return s[k].get<double>();
  if (s[k].is_string()) {
    const std::string t = text(k);
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() && *end == '\0' && std::isfinite(v)) return v;
  }
  fail(k, fmt::format("{} is not a number (expected e.g. 405e9)", quote_json(s[k])));
}
double SettingsReader::count(const std::string& k) const {
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
int SettingsReader::integer(const std::string& k, int lo, int hi) const {
  const double v = number(k);
  if (v != std::floor(v) || v < lo || v > hi) fail(k, fmt::format("{} is not a whole number from {} to {}", quote_json(s[k]), lo, hi));
  return static_cast<int>(v);
}
bool SettingsReader::boolean(const std::string& k) const {
  if (s[k].is_boolean()) return s[k].get<bool>();
  if (s[k].is_string() && (text(k) == "true" || text(k) == "false")) return text(k) == "true";
  fail(k, fmt::format("{} is not true or false", quote_json(s[k])));
}
double SettingsReader::percent(const std::string& k) const {
  const std::string t = s[k].is_string() ? text(k) : "";
  if (t.empty() || t.back() != '%') fail(k, fmt::format("{} is not a percentage (expected e.g. \"5%\")", quote_json(s[k])));
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end == t.c_str() || std::string(end) != "%" || !(v > 0 && v < 100))
    fail(k, fmt::format("\"{}\" is not a percentage between 0% and 100%", t));
  return v / 100.0;
}

}  // namespace iowall::plan
