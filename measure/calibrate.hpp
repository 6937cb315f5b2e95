// `iowall calibrate`: fits model parameters to measured points and writes them as a
// profile, a JSON document of unit strings with the quality of every fit.
//   storage   cpu_only reads: per-command latency L, media bandwidth B and command-rate
//             ceiling I, from throughput over I/O size and concurrency (Levenberg-Marquardt)
//   cpu       CPU seconds per I/O = per_io + per_byte * size + per_call / qd (io_uring
//             batches a call's I/Os; O_DIRECT pins and maps every page of the buffer)
//   memcpy    cpu_cached reads: time per I/O = fixed + size / memcpy bandwidth
//   h2d_copy  cpu_gpu minus cpu_only, per I/O at QD1: launch cost + size / copy bandwidth
//   cufile    gpu_direct minus cpu_gpu, per I/O at QD1: cuFile's compatibility-mode overhead
// and, from write measurements (measure/calibrate_writes.hpp), the drive's write latency,
// write bandwidth and flush cost, a buffered write's cost, and the page cache's writeback.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/calibration_points.hpp"
#include "measure/fit.hpp"

namespace iowall::calib {

// How the drive serves reads: the fitted ceiling's form, written as the nvme_ssd's
// "read_service" (models/ssd/read_service.hpp).
//   overlapped  command processing beside earlier commands' data transfer (physical SSD)
//   serial      each command holds the controller through its data transfer (1/I + s/B
//               in series): an emulated device serving one request at a time
//   batched     serial and served in batches: one wake-up (the latency) per batch of the
//               I/Os in flight, then 1/I + s/B per command, all completing at its end
enum class ReadForm { overlapped, serial, batched };

// The read service's name for `f`, as the nvme_ssd model declares the choices of its
// "read_service" parameter in the registry (std::logic_error if it no longer does).
std::string read_service_name(ReadForm f);
// The form named `name`; InputError at `path`, `pointer` for a name that is none.
ReadForm read_form(const std::string& name, const std::string& path, const std::string& pointer);

struct StorageParams {
  double latency_s = 0;          // media access latency per command
  double bandwidth_Bps = 0;      // media bandwidth
  double max_iops = 0;           // controller command ceiling
  double mdts_bytes = 131072;    // commands are at most this large
  ReadForm read = ReadForm::overlapped;
  // A virtual disk's copy cache (virtio_blk copy_cache, cold_copy_bandwidth): where the
  // points' buffers (concurrency x size) outgrow copy_cache_bytes their reads slow down;
  // 0: not fitted.
  double copy_cache_bytes = 0;
  double cold_copy_Bps = 0;
};

// Closed-form throughput the fit uses (mean-value): `concurrency` I/Os in flight, each
// taking cpu + 1/I + L + s/B alone, capped by the media bandwidth and the command rate
// (or, serial, by one command after another at 1/I + size/B each).
double storage_throughput(const StorageParams& p, double io_size, int concurrency, double cpu_s_per_io);

struct CpuCost {
  double per_io_s = 0, per_byte_s = 0, per_call_s = 0;
  double at(int qd, double io_size) const { return per_io_s + per_byte_s * io_size + per_call_s / qd; }
};

// A line t = a + s / bandwidth fitted to per-I/O times (seconds) over I/O sizes (bytes).
struct SizeLine {
  double fixed_s = 0, bandwidth_Bps = 0;
  bool bandwidth_identified = false;  // a positive slope that explains the data (R2 >= 0.5)
  fit::Quality q;
};

// Where a fitted value came from: the measured configurations and the files holding them.
struct Sources {
  std::vector<std::string> points, files;
  void add(const PointGroup& g);
};

// The write fits (measure/calibrate_writes.hpp), each with its sources.
struct FlushFit {  // an fsync with nothing dirty in the page cache: the drive's flush_cost
  double cost_s = 0;
  Sources from;
};
struct DriveWriteFit {  // O_DIRECT writes: the lumped write latency and write data path bandwidth
  double latency_s = 0, bandwidth_Bps = 0;
  bool serial = false;  // the write service: processing and data in series (else pipelined)
  double link_Bps = 0;  // the drive's link as the fit took it; 0: not limiting
  fit::Quality q;
  nlohmann::json residuals = nlohmann::json::array();
  Sources from;
};
struct BufferedWriteFit {  // write() into the page cache at QD1: fixed + size / bandwidth
  SizeLine line;
  Sources from;
  // io_uring's io-wq (several writes in flight): the fixed part of a write the file's worker
  // runs one at a time; the rest of the QD1 fixed time is the handoff (line.fixed_s - this).
  std::optional<double> io_wq_serial_s;
  double io_wq_rms = 0;  // rms log residual of the per-write times
  Sources io_wq_from;
};
struct WritebackFit {  // fsync of dirty page-cache data: the flusher's rate and the kernel's settings
  double flusher_Bps = 0;
  bool flusher_identified = false;  // below the drive's own write ceiling (else the drive sets the rate)
  i64 request_bytes = 0;            // one writeback request (max_sectors_kb); 0: not recorded
  std::optional<measure::MeasuredVm> vm;
  fit::Quality q;
  nlohmann::json residuals = nlohmann::json::array();
  Sources from;
};
struct WriteFits {
  std::optional<FlushFit> flush;
  std::optional<DriveWriteFit> drive;
  std::optional<BufferedWriteFit> buffered;
  std::optional<WritebackFit> writeback;
  bool any() const { return flush || drive || buffered || writeback; }
};

struct Profile {
  std::string name, machine, subset = "all", topology;
  std::vector<std::string> files;
  std::optional<StorageParams> storage;
  fit::Quality storage_q;
  bool iops_constrained = false;  // whether the points reach the command-rate ceiling
  double latency_sigma = 0;
  std::optional<CpuCost> cpu;
  fit::Quality cpu_q;
  std::optional<SizeLine> memcpy, h2d, cufile;
  WriteFits writes;
  std::vector<std::string> notes;  // what could not be fitted, and why
  // Each fitted drive parameter's standard error relative to its value (from the fit's
  // residuals, fit::standard_errors), by its name in the topology: read_latency,
  // read_bandwidth, max_iops, write_latency, write_bandwidth. Absent: not identified.
  std::map<std::string, double> relative_se;
  nlohmann::json residuals = nlohmann::json::array();
  std::vector<std::string> fitted_points;
};

// Fits every model the groups selected by `subset` allow.
Profile calibrate(const std::vector<PointGroup>& groups, const Subset& subset);

nlohmann::json profile_to_json(const Profile& p);
// Reads a profile's parameters back (for validate and --emit-topology); throws InputError.
Profile profile_from_json(const nlohmann::json& j, const std::string& path);
Profile read_profile(const std::string& path);

// Unit strings rounded to four significant digits.
std::string time_text(double seconds);
std::string bandwidth_text(double bytes_per_s);
std::string rate_text(double per_s);
// A relative standard error as the spread of a topology value (" +- 6.2%", two significant
// digits); "" when it is 0 or 100% and more (no normal spread of that width is a value).
std::string spread_text(double relative_se);

}  // namespace iowall::calib
