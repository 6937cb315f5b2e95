#include "sim/plan/storage_target.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/plan/plan_text.hpp"

namespace iowall::plan {

double StorageTarget::latency_bound_bw() const {
  if (request_latency <= 0 || io_size <= 0) return 0;
  return queue_depth * io_size / request_latency;
}
int StorageTarget::servers_for(double bw) const {
  if (!(server_write_bw > 0) || !(bw > 0)) return 0;
  return static_cast<int>(std::ceil(bw / server_write_bw - 1e-9));
}

std::vector<std::string> StorageTarget::note_texts() const {
  std::vector<std::string> texts;
  for (const StorageNote& n : notes) texts.push_back(n.text);
  return texts;
}

void StorageTarget::set_spread_value(const PresetSpread& s, double per_unit) {
  if (s.field == "node_write_bw") node_write_bw = s.count * per_unit;
  else if (s.field == "node_read_bw") node_read_bw = s.count * per_unit;
  else throw RunError("storage target: no field " + s.field);
}

double StorageTarget::client_cap() const {
  const double l = latency_bound_bw();
  if (client_bw <= 0) return l;
  return l <= 0 ? client_bw : std::min(client_bw, l);
}

const std::vector<std::string>& storage_kinds() {
  static const std::vector<std::string> k{"local-nvme", "nvme-of", "pfs", "object"};
  return k;
}

namespace {
constexpr double GB = 1e9, TB = 1e12, MiB = 1048576.0;
// Storage NICs of a GPU node: two 400 Gb/s ports (DGX H100 carries two dual-port
// ConnectX-7 for storage and in-band management; two ports for storage is an assumption).
constexpr double kNodeStorageNic = 2 * 400e9 / 8;
}  // namespace

StorageTarget storage_preset(const std::string& kind) {
  StorageTarget t;
  t.kind = kind;
  t.values_from = "the " + kind + " preset";
  if (kind == "local-nvme") {
    t.node_write_bw = 8 * 6.0 * GB;
    t.node_read_bw = 8 * 13.0 * GB;
    t.request_latency = 15e-6;
    t.io_size = 1 * MiB;
    t.queue_depth = 32;
    t.file_latency = 1e-3;
    t.capacity_per_node = 8 * 3.84 * TB;
    t.server_write_bw = 6.0 * GB;
    t.server_unit = "SSD per node";
    t.server_source = "PM1743, vendor spec";
    t.notes = {{{"node_bw", "node_read_bw", "server_bw"},
                "node bandwidth: 8 drives x PM1743 6.0 GB/s write, 13 GB/s read (figures.md, vendor spec)"},
               {{}, "no shared ceiling: each node writes its own drives; a checkpoint on a failed node is lost unless copied"},
               {{"request_latency"}, "request latency 15 us: Micron 9550 typical write latency (figures.md)"},
               {{"capacity"}, "capacity 8 x 3.84 TB per node: DGX H100 internal NVMe (datasheet)"},
               {{"file_latency"}, "file create + fsync 1 ms: assumption"}};
    // figures.md: "13-14 GB/s seq read, 6.0-6.6 GB/s seq write" (Samsung); 8 drives a node.
    t.spreads = {{"local-nvme.drive_write_bw", "6 GB/s (6 GB/s .. 6.6 GB/s)", "PM1743 6.0-6.6 GB/s write (figures.md)",
                  {"node_bw"}, "node_write_bw", 8},
                 {"local-nvme.drive_read_bw", "13 GB/s (13 GB/s .. 14 GB/s)", "PM1743 13-14 GB/s read (figures.md)",
                  {"node_bw", "node_read_bw"}, "node_read_bw", 8}};
  } else if (kind == "nvme-of") {
    t.write_bw = t.read_bw = 8 * 100 * GB;
    t.node_write_bw = t.node_read_bw = kNodeStorageNic;
    t.request_latency = 30e-6;
    t.io_size = 1 * MiB;
    t.queue_depth = 32;
    t.file_latency = 1e-3;
    t.server_write_bw = 100 * GB;
    t.server_unit = "server";
    t.server_source = "2 x 400 Gb/s NICs in front of 24 Gen5 drives: assumption";
    t.notes = {{{"storage_bw", "storage_read_bw", "server_bw"},
                "aggregate: 8 servers x 100 GB/s; a server = 2 x 400 Gb/s NICs in front of 24 Gen5 drives "
                "(24 x 6.0 GB/s > 100 GB/s): assumption"},
               {{"node_bw", "node_read_bw"}, "per node: 2 x 400 Gb/s storage ports: assumption (DGX H100 class)"},
               {{"request_latency"},
                "request latency 30 us: 15 us drive write (figures.md) + RDMA fabric and target: assumption"},
               {{"file_latency"}, "file create + commit 1 ms: assumption"}};
  } else if (kind == "pfs") {
    t.write_bw = t.read_bw = 16 * 50 * GB;
    t.node_write_bw = t.node_read_bw = kNodeStorageNic;
    t.client_bw = 10 * GB;
    t.request_latency = 1e-3;
    t.io_size = 4 * MiB;
    t.queue_depth = 8;
    t.file_latency = 5e-3;
    t.server_write_bw = 50 * GB;
    t.server_unit = "server";
    t.server_source = "an object-storage server: assumption";
    t.notes = {{{"storage_bw", "storage_read_bw", "server_bw"}, "aggregate: 16 object-storage servers x 50 GB/s: assumption"},
               {{"node_bw", "node_read_bw"}, "per node: 2 x 400 Gb/s storage ports: assumption"},
               {{"client_bw"}, "one process's client at most 10 GB/s (single-stream client software): assumption"},
               {{"io_size", "queue_depth", "request_latency"},
                "4 MiB RPCs, 8 in flight (Lustre defaults max_pages_per_rpc, max_rpcs_in_flight), 1 ms each: assumption"},
               {{"file_latency"}, "file create on the metadata server 5 ms: assumption"}};
  } else if (kind == "object") {
    t.write_bw = t.read_bw = 200 * GB;
    t.node_write_bw = t.node_read_bw = kNodeStorageNic;
    t.client_bw = 16 * 0.09 * GB;
    t.request_latency = 50e-3;
    t.io_size = 64 * MiB;
    t.queue_depth = 16;
    t.file_latency = 100e-3;
    t.server_write_bw = 25 * GB;
    t.server_unit = "server";
    t.server_source = "assumption";
    t.notes = {{{"storage_bw", "storage_read_bw", "server_bw"}, "aggregate 200 GB/s: assumption (the figure seed 003 asks for)"},
               {{"client_bw"}, "per rank 16 connections x ~90 MB/s per HTTP connection: assumption"},
               {{"io_size", "queue_depth", "request_latency"}, "64 MiB multipart parts, 16 in flight, 50 ms service each: assumption"},
               {{"file_latency"}, "multipart create + complete 100 ms: assumption"}};
  } else {
    throw InputError("", "--target",
                     fmt::format("\"{}\" is not a storage target (expected local-nvme, nvme-of, pfs or object)", kind));
  }
  return t;
}

namespace {

// Replaces the notes covering any of `keys` by one (in the first one's place), or adds it.
void replace_notes(StorageTarget& t, const std::vector<std::string>& keys, std::string text) {
  auto covers = [&](const StorageNote& n) {
    for (const std::string& k : keys)
      if (std::find(n.covers.begin(), n.covers.end(), k) != n.covers.end()) return true;
    return false;
  };
  const auto first = std::find_if(t.notes.begin(), t.notes.end(), covers);
  const std::size_t at = static_cast<std::size_t>(first - t.notes.begin());
  t.notes.erase(std::remove_if(t.notes.begin(), t.notes.end(), covers), t.notes.end());
  t.notes.insert(t.notes.begin() + static_cast<std::ptrdiff_t>(std::min(at, t.notes.size())), StorageNote{keys, std::move(text)});
}

std::string target_time_text(double s) { return to_string(Time(static_cast<i64>(std::llround(s * 1e12)))); }

}  // namespace

void note_given_settings(StorageTarget& t, const GivenSetting& given) {
  auto any = [&](const std::vector<std::string>& keys) {
    return std::any_of(keys.begin(), keys.end(), [&](const std::string& k) { return !given(k).empty(); });
  };
  // Where a value came from: the first of `keys` given, else the preset (or simulated node).
  auto from = [&](const std::vector<std::string>& keys) {
    for (const std::string& k : keys)
      if (const std::string g = given(k); !g.empty()) return "given: " + g;
    return t.values_from;
  };
  // Servers (or drives) that deliver `bw` at the per-server bandwidth in force.
  auto units = [&](double bw) {
    return fmt::format("{} x {} at {} write each ({})", t.servers_for(bw), t.server_unit,
                       rate_text(t.server_write_bw), given("server_bw").empty() ? t.server_source : from({"server_bw"}));
  };
  // A read bandwidth given with no read setting follows the write setting that set it.
  auto read_from = [&](const char* read_key, const char* write_key, double read, double write) {
    return !given(read_key).empty() || read != write ? from({read_key}) : from({write_key});
  };
  if (t.write_bw > 0 && any({"storage_bw", "storage_read_bw", "server_bw"}))
    replace_notes(t, {"storage_bw", "storage_read_bw", "server_bw"},
                  fmt::format("aggregate: write {} ({}), read {} ({}){}", rate_text(t.write_bw), from({"storage_bw"}),
                              rate_text(t.read_bw), read_from("storage_read_bw", "storage_bw", t.read_bw, t.write_bw),
                              t.server_write_bw > 0 ? "; " + units(t.write_bw) : std::string()));
  const std::vector<std::string> node_keys =
      t.write_bw > 0 ? std::vector<std::string>{"node_bw", "node_read_bw"}
                     : std::vector<std::string>{"node_bw", "node_read_bw", "server_bw"};
  if (any(node_keys))
    replace_notes(t, node_keys,
                  fmt::format("{}: write {} ({}), read {} ({}){}", t.write_bw > 0 ? "per node" : "node bandwidth",
                              rate_text(t.node_write_bw), from({"node_bw"}), rate_text(t.node_read_bw),
                              read_from("node_read_bw", "node_bw", t.node_read_bw, t.node_write_bw),
                              t.write_bw <= 0 && t.server_write_bw > 0 ? "; " + units(t.node_write_bw) : std::string()));
  if (any({"client_bw"}))
    replace_notes(t, {"client_bw"}, fmt::format("one rank's client at most {} ({})", rate_text(t.client_bw), from({"client_bw"})));
  if (any({"io_size", "queue_depth", "request_latency"}))
    replace_notes(t, {"io_size", "queue_depth", "request_latency"},
                  fmt::format("requests of {} ({}), {} in flight per rank ({}), {} each ({})",
                              to_string(Bytes(static_cast<i64>(std::llround(t.io_size)))), from({"io_size"}),
                              t.queue_depth, from({"queue_depth"}), target_time_text(t.request_latency), from({"request_latency"})));
  if (any({"file_latency"}))
    replace_notes(t, {"file_latency"},
                  fmt::format("file create + commit {} ({})", target_time_text(t.file_latency), from({"file_latency"})));
  if (any({"capacity"}))
    replace_notes(t, {"capacity"},
                  fmt::format("capacity {} ({}){}", to_string(Bytes(static_cast<i64>(std::llround(t.capacity)))), from({"capacity"}),
                              t.capacity_per_node > 0 ? fmt::format(", {} per node", bytes_text(t.capacity_per_node))
                                                      : std::string()));
}

}  // namespace iowall::plan
