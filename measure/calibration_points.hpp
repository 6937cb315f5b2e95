// The measured points that calibration and validation work on: measurement files read
// back, repeats of the same configuration grouped, with medians and the run-to-run
// spread. A subset spec ("qd=1,io_size<=64KiB") selects groups by their configuration.
#pragma once
#include <string>
#include <vector>

#include "measure/measurement_json.hpp"

namespace iowall::calib {

// One repeat of a measured configuration.
struct Sample {
  double bw_bytes_per_s = 0;
  double iops = 0;
  double clat_mean_ns = 0, clat_p50_ns = 0, clat_p90_ns = 0;
  double cpu_s_per_io = 0;  // (usr + sys) CPU seconds over all threads, per I/O
  std::optional<double> cached_at_start;  // share of the file in the page cache, when recorded
};

// All repeats of one configuration (transfer type, engine, I/O size, queue depth, threads).
struct PointGroup {
  std::string xfer, engine, io_mode, file;
  i64 io_size = 0;
  int qd = 1, threads = 1;
  // gpu_direct: cuFile ran in compatibility mode (POSIX reads through its bounce buffers)
  // in every repeat that said; nullopt where no repeat recorded it.
  std::optional<bool> cufile_compat;
  std::vector<Sample> samples;
  std::string key() const;  // e.g. "cpu_only io_uring 128 KiB qd8 t2"
  int concurrency() const { return qd * threads; }
  double median_bw() const;
  double median_iops() const;
  double median_cpu_s_per_io() const;
  double median_p50_ns() const;
  double median_p90_ns() const;
  double min_bw() const;
  double max_bw() const;
  // The median share of the file cached as the repeats began; nullopt unless every repeat recorded it.
  std::optional<double> median_cached_at_start() const;
};

double median(std::vector<double> v);

// Reads measurement files written by this version of `iowall measure`; throws InputError
// naming the file for a missing file, another tool's JSON, another version, or no points.
std::vector<PointGroup> load_points(const std::vector<std::string>& files);

// Conditions on a group's configuration, all of which must hold: comma-separated
// `key OP value` with keys io_size, qd, threads, concurrency, xfer, engine and OP one of
// = != < <= > >=; "all" selects everything.
class Subset {
public:
  explicit Subset(const std::string& spec);  // throws InputError("--fit-subset", ...)
  bool contains(const PointGroup& g) const;
  const std::string& spec() const { return spec_; }

private:
  struct Condition {
    std::string key, op, text;
    double number = 0;
  };
  std::string spec_;
  std::vector<Condition> conditions_;
};

}  // namespace iowall::calib
