// Where checkpoints go: local NVMe, NVMe-oF, a parallel file system, an object store.
// Each is a handful of numbers (aggregate, per-node and per-client bandwidth, request
// and per-file latency, capacity); every preset value names its source or says it is
// an assumption, and every one can be overridden from the command line or scenario;
// then the notes on the values replaced say where the new ones came from.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace iowall::plan {

// Where some of a target's values come from, and the settings that replace them
// ("storage_bw", "request_latency", ...; none for a note that no setting changes).
struct StorageNote {
  std::vector<std::string> covers;
  std::string text;
};

// A preset value whose cited source gives a range (figures.md: a PM1743 writes 6.0 to
// 6.6 GB/s): the preset plans at its own value; `plan checkpoint --uncertainty` draws it
// per sample while no setting replaces it (sim/plan/plan_uncertainty.hpp).
struct PresetSpread {
  std::string label;                // "local-nvme.drive_write_bw"
  std::string text;                 // one drive's value with its range: "6 GB/s (6 GB/s .. 6.6 GB/s)"
  std::string source;               // where the range is given
  std::vector<std::string> covers;  // the settings that replace it
  std::string field;                // "node_write_bw" or "node_read_bw": `count` x the drawn value
  double count = 1;
};

struct StorageTarget {
  std::string kind;               // local-nvme | nvme-of | pfs | object
  double write_bw = 0, read_bw = 0;            // aggregate B/s; 0 = scales with nodes (local)
  double node_write_bw = 0, node_read_bw = 0;  // per node: NICs to storage, or local drives
  double client_bw = 0;           // one rank's client ceiling (software, connections); 0 = none
  double request_latency = 0;     // s, one request's service time as the client sees it
  double io_size = 0;             // bytes per request
  int queue_depth = 1;            // requests one rank keeps in flight
  double file_latency = 0;        // s, create + commit of one rank's file
  double capacity = 0;            // bytes of the whole target; 0 = not limited
  double capacity_per_node = 0;   // local targets: bytes per node
  double server_write_bw = 0;     // one storage server (or SSD for local), for counts
  std::string server_unit;        // "server" or "SSD per node"
  std::string server_source;      // where server_write_bw comes from
  std::string values_from;        // "the nvme-of preset", or the node simulated for its rates
  std::vector<StorageNote> notes;  // sources and assumptions, one per parameter
  std::vector<PresetSpread> spreads;  // values in force whose source gives a range
  // Little's law: a rank with queue_depth requests of io_size in flight, each taking
  // request_latency, cannot go faster than this.
  double latency_bound_bw() const;
  double client_cap() const;  // min of client_bw and the latency bound (0 = none)
  // Servers (or drives) of server_write_bw that deliver `bw` (0 when no per-server figure);
  // a quotient a rounding error above a whole number counts as that number.
  int servers_for(double bw) const;
  std::vector<std::string> note_texts() const;
  // Sets a spread's field to `count` x `per_unit` (B/s).
  void set_spread_value(const PresetSpread& s, double per_unit);
};

// The preset for `kind`; throws InputError (option `--target`) for an unknown kind.
// Of the presets' sources only figures.md's PM1743 line gives ranges (13-14 GB/s read,
// 6.0-6.6 GB/s write): local-nvme's drive bandwidths carry them, triangular with the mode
// at the value the preset uses; every other preset value is one figure or an assumption.
StorageTarget storage_preset(const std::string& kind);
const std::vector<std::string>& storage_kinds();

// Rewrites the notes on the values the user's settings replaced, so that none names a
// value no longer in force (a preset's "8 servers x 100 GB/s" beside a given 1.1 TB/s).
// `given(key)` says where a setting came from ("--storage-bw", "FILE#/plan/storage_bw"),
// empty when it was not given. The new notes give every value with its source, and
// server counts from the bandwidths in force.
using GivenSetting = std::function<std::string(const std::string& key)>;
void note_given_settings(StorageTarget& t, const GivenSetting& given);

}  // namespace iowall::plan
