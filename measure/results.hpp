// What one measurement produced: per thread and per repeat, before it is written out.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "measure/cufile_api.hpp"
#include "measure/disk_stats.hpp"
#include "measure/options.hpp"
#include "measure/page_cache_stats.hpp"
#include "measure/target.hpp"
#include "sim/core/histogram.hpp"

namespace iowall::measure {

struct DirectionStats {
  LogLinearHistogram clat_ns;  // completion latency of each operation, in ns
  std::uint64_t ops = 0;
  std::uint64_t bytes = 0;
};

struct ThreadResult {
  int index = 0;
  std::int64_t region_offset = 0, region_bytes = 0;  // the part of the target it owns
  DirectionStats read, write;
  DirectionStats sync;  // fsync/fdatasync calls (fio's "sync"); bytes stay 0
  // Relative to the common start: the first write handed over, the last write completed,
  // and the point from which all of this thread's writes were durable (null when some were
  // never synced: no durability option, or writes after the last --fsync N).
  std::optional<double> first_write_s, writes_done_s, durable_s;
  std::int64_t unsynced_writes = 0;
  double start_s = 0, end_s = 0;  // relative to the common start of all threads
  double usr_s = 0, sys_s = 0;    // CPU time of this thread (RUSAGE_THREAD)
  long ctx_switches = 0;
  bool cufile_buffer_registered = false;
  // cpu_only and cpu_cached: the I/O buffers' size and how much of it transparent huge pages back.
  std::int64_t host_buffer_bytes = 0, host_buffer_huge_bytes = 0;
  std::int64_t host_buffer_runs = -1;  // physically contiguous runs of the buffer; -1: not readable
  std::string error;
  double elapsed_s() const { return end_s - start_s; }
};

struct RepeatResult {
  int repeat = 1;  // 1-based
  std::vector<ThreadResult> threads;
  double first_done_s = 0, last_done_s = 0;
  // The share of the target's pages in the page cache as the repeat began (regular files).
  std::optional<double> page_cache_resident_at_start;
  std::optional<DiskUsage> disk;  // the target's block device over the repeat, where the kernel counts it
  PageCacheUsage page_cache;      // the kernel's dirty and writeback pages around and during the repeat
};

struct RunInfo {
  MeasureOptions options;
  Target target;
  std::string cuda_library;              // when a GPU type ran
  std::optional<CompatInfo> cufile;      // when cuFile ran
  std::string cufile_library;
  std::vector<RepeatResult> repeats;
  VmDirtySettings vm;  // vm.dirty_* and memory, once per run
  long unix_time = 0;
};

}  // namespace iowall::measure
