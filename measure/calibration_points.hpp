// The measured points that calibration and validation work on: measurement files read
// back, repeats of the same configuration grouped, with medians and the run-to-run
// spread. A subset spec ("qd=1,io_size<=64KiB") selects groups by their configuration.
// Reads and writes are told apart by their I/O mode; a write group also says how its
// writes were made durable, what it wrote in all, and the kernel's dirty-page settings.
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
  // Writes: the write phase (first write to last completion) and the syncs' mean latency.
  std::optional<double> write_phase_s, sync_mean_s;
};

// All repeats of one configuration (transfer type, engine, I/O size, queue depth, threads).
struct PointGroup {
  std::string xfer, engine, io_mode, file;
  i64 io_size = 0;
  int qd = 1, threads = 1;
  // gpu_direct: cuFile ran in compatibility mode (POSIX reads through its bounce buffers)
  // in every repeat that said; nullopt where no repeat recorded it.
  std::optional<bool> cufile_compat;
  // The largest request the block queue takes (max_sectors_kb, bytes), where recorded.
  std::optional<i64> max_request_bytes;
  // Writes only: how they were made durable; the bytes written in all (-s); the
  // dirty-page settings.
  measure::MeasuredDurability durable_as;
  i64 size = 0;
  std::optional<measure::MeasuredVm> vm;
  std::vector<std::string> files;  // every file with a repeat of this configuration
  std::vector<Sample> samples;
  // e.g. "cpu_only io_uring 128 KiB qd8 t2"; a write adds its mode and durability:
  // "cpu_cached io_uring 1 MiB qd1 t1 write end_fsync".
  std::string key() const;
  bool writes() const { return io_mode == "write" || io_mode == "randwrite"; }
  // The scenario workload's "durability" for this group's writes (none, fsync_end,
  // fsync_each, o_dsync); "none" for reads.
  std::string durability() const;
  int sync_every() const { return durable_as.fsync_every ? durable_as.fsync_every : durable_as.fdatasync_every; }
  int concurrency() const { return qd * threads; }
  double median_bw() const;
  double median_iops() const;
  double median_cpu_s_per_io() const;
  double median_p50_ns() const;
  double median_p90_ns() const;
  double min_bw() const;
  double max_bw() const;
  // Writes: medians over the repeats that recorded them (nullopt where none did).
  std::optional<double> median_write_phase_s() const;
  std::optional<double> median_sync_s() const;
  // The median share of the file cached as the repeats began; nullopt unless every repeat recorded it.
  std::optional<double> median_cached_at_start() const;
};

double median(std::vector<double> v);

// Reads measurement files written by this version of `iowall measure`; throws InputError
// naming the file for a missing file, another tool's JSON, another version, or no points.
std::vector<PointGroup> load_points(const std::vector<std::string>& files);

// Conditions on a group's configuration, all of which must hold: comma-separated
// `key OP value` with keys io_size, qd, threads, concurrency, xfer, engine, io_mode,
// durability and OP one of = != < <= > >= (= and != for the names); "all" selects everything.
class Subset {
public:
  explicit Subset(const std::string& spec);  // throws InputError("--fit-subset", ...)
  bool contains(const PointGroup& g) const;
  const std::string& spec() const { return spec_; }
  // "none": nothing is fitted; a validation carries a profile as it is to every point
  // (a fit made on another machine, or another day).
  bool none() const { return spec_ == "none"; }

private:
  struct Condition {
    std::string key, op, text;
    double number = 0;
  };
  std::string spec_;
  std::vector<Condition> conditions_;
};

}  // namespace iowall::calib
