// Reads a file written by `iowall measure --output-format json` back into the points
// that calibration fits: one point per repeat, with the options it ran under, its
// aggregate bandwidth and latency percentiles. Errors name the file and JSON pointer.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/units.hpp"

namespace iowall::measure {

struct MeasuredLatency {
  std::uint64_t min_ns = 0, max_ns = 0;
  double mean_ns = 0, stddev_ns = 0;
  std::vector<std::pair<double, std::uint64_t>> percentiles_ns;  // (percent, ns), ascending
  // The value at `percent`, if that percentile was recorded.
  std::optional<std::uint64_t> at(double percent) const;
};

struct MeasuredDirection {
  std::uint64_t io_bytes = 0, bw_bytes = 0, ops = 0;
  double iops = 0;
  double runtime_ms = 0;
  MeasuredLatency clat;
};

// When the writes were made durable (fio's end_fsync, fsync=N, fdatasync=N, sync=dsync).
struct MeasuredDurability {
  bool end_fsync = false;
  int fsync_every = 0, fdatasync_every = 0;  // 0: none
  bool dsync = false;                        // O_DSYNC on the target
};

struct MeasuredOptions {
  std::string file, target_kind, xfer_type, io_mode, engine;
  Bytes size, io_size;
  int threads = 1, qd = 1, rwmixread = 100, gpu = 0;
  std::optional<Time> runtime;
  std::optional<MeasuredDurability> durability;  // absent in files written before durable writes
};

// The fsync/fdatasync calls of one repeat, over all threads.
struct MeasuredSyncs {
  std::uint64_t calls = 0;
  double mean_ns = 0;  // mean latency of one call
};

// The kernel's dirty-page settings as the run found them (/proc/sys/vm, /proc/meminfo);
// a field the kernel did not provide is absent.
struct MeasuredVm {
  std::optional<double> dirty_ratio, dirty_background_ratio;  // percent
  std::optional<std::uint64_t> dirty_bytes, dirty_background_bytes;
  std::optional<std::uint64_t> dirty_expire_centisecs, dirty_writeback_centisecs;
  std::optional<std::uint64_t> mem_total_bytes, mem_available_bytes;
};

struct MeasurementPoint {
  int repeat = 1;
  MeasuredOptions options;
  double first_done_s = 0, last_done_s = 0;
  std::optional<double> page_cache_resident_at_start;  // 0-1; absent in older files or where unknown
  MeasuredDirection read, write;
  // Writes: from the first write to the last one completed; the repeat's syncs. Reads and
  // writes: the largest request the block queue takes (max_sectors_kb). Absent where not
  // recorded.
  std::optional<double> write_phase_s;
  std::optional<MeasuredSyncs> syncs;
  std::optional<std::uint64_t> max_request_kib;
};

struct MeasurementFile {
  std::string path, version;
  std::optional<bool> cufile_compat_mode;  // when cuFile ran and its mode was known
  std::optional<MeasuredVm> vm;            // /iowall/vm, where recorded
  std::vector<MeasurementPoint> points;
};

// Throws InputError(path, pointer, message) for unreadable or malformed files.
MeasurementFile read_measurement_file(const std::string& path);
// The same for JSON already in memory; `path` is used in messages.
MeasurementFile parse_measurement_json(const nlohmann::json& j, const std::string& path);
// The same for the file's text (malformed JSON is an InputError with line and column).
MeasurementFile parse_measurement_text(const std::string& text, const std::string& path);

}  // namespace iowall::measure
