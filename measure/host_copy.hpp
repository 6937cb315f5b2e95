// `iowall measure --copy`: the host-memory legs of a checkpoint, measured without storage.
// d2h copies -s bytes of GPU memory into host memory with cudaMemcpy, -i bytes a call; h2d
// copies them back the same way; cpu_pass runs a framework's per-byte serialization work
// over host memory (memcpy into another buffer, or a zip CRC-32). The host memory is of the
// kind --host-memory names (host_memory.hpp). One thread; each call's latency is recorded in
// the log-linear histogram the I/O measurements use, and fio's JSON shape holds the result.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/options.hpp"
#include "sim/core/histogram.hpp"

namespace iowall::measure {

struct CopyRepeat {
  int repeat = 1;
  LogLinearHistogram lat_ns;     // each cudaMemcpy (or pass over one chunk)
  std::uint64_t chunks = 0, bytes = 0;
  double seconds = 0;            // first call to last completed (h2d: after a device synchronize)
  double usr_s = 0, sys_s = 0;   // the process's CPU time over the copy (the driver's threads included)
  long ctx = 0, minor_faults = 0, major_faults = 0;
  std::int64_t huge_page_bytes = 0;  // of the host buffer after the copy
  std::uint32_t crc32 = 0;           // --pass crc32: the checksum, so the pass cannot be skipped
};

struct CopyRunInfo {
  MeasureOptions options;
  std::string cuda_library, gpu_name;  // d2h, h2d
  std::string thp_enabled;             // the system's transparent huge page mode
  bool advice_applied = false;         // madvise took --thp
  std::vector<CopyRepeat> repeats;
  long unix_time = 0;
};

// Throws InputError for bad options or a machine without a GPU (d2h, h2d), RunError for
// failures while running (an interrupt included).
CopyRunInfo run_copy_measurement(const MeasureOptions& o);

// fio's shape: "jobs" (one per repeat, "groupid" = repeat - 1) with a "copy" section
// {io_bytes, bw_bytes, bw, iops, runtime, total_ios, lat_ns}, "minf"/"majf", "host_buffer";
// and "iowall" {mode "copy", the copy, the host memory and its advice, per repeat figures}.
nlohmann::ordered_json copy_to_json(const CopyRunInfo& info);
// "Copy: D2H HostMemory: pageable_fresh ... Throughput: 3.1 GiB/sec ..."
std::string copy_summary(const CopyRunInfo& info, const CopyRepeat& r);

}  // namespace iowall::measure
