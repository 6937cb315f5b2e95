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

struct MeasuredOptions {
  std::string file, target_kind, xfer_type, io_mode, engine;
  Bytes size, io_size;
  int threads = 1, qd = 1, rwmixread = 100, gpu = 0;
  std::optional<Time> runtime;
};

struct MeasurementPoint {
  int repeat = 1;
  MeasuredOptions options;
  double first_done_s = 0, last_done_s = 0;
  std::optional<double> page_cache_resident_at_start;  // 0-1; absent in older files or where unknown
  MeasuredDirection read, write;
};

struct MeasurementFile {
  std::string path, version;
  std::optional<bool> cufile_compat_mode;  // when cuFile ran and its mode was known
  std::vector<MeasurementPoint> points;
};

// Throws InputError(path, pointer, message) for unreadable or malformed files.
MeasurementFile read_measurement_file(const std::string& path);
// The same for JSON already in memory; `path` is used in messages.
MeasurementFile parse_measurement_json(const nlohmann::json& j, const std::string& path);
// The same for the file's text (malformed JSON is an InputError with line and column).
MeasurementFile parse_measurement_text(const std::string& text, const std::string& path);

}  // namespace iowall::measure
