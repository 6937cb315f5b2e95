// Turns a measurement into fio-shaped JSON (so jq scripts written for fio work on it)
// and into gdsio's one-line summary for people.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "measure/results.hpp"

namespace iowall::measure {

inline constexpr const char* kIowallVersion = "0.1.0";

// Top level: "iowall_version", "time", "jobs" (one per thread and repeat, or with
// --group-reporting one per repeat holding all threads, as fio's --group_reporting;
// "groupid" is the repeat, 0-based; each direction has fio's slat_ns, clat_ns, lat_ns), "disk_util" (fio's, summed over the repeats), and "iowall" (transfer type, engine, cuFile mode, options, and
// per repeat the aggregate over threads with first_done_s / last_done_s).
nlohmann::ordered_json to_json(const RunInfo& info);

// "IoType: READ XferType: CPUONLY Threads: 4 DataSetSize: ... total_time 0.48 secs"
std::string gdsio_summary(const RunInfo& info, const RepeatResult& r);

// fio's "Disk stats" line for the device under a repeat:
// "Disk stats (read/write): vda: ios=64/0, merge=0/0, ..., util=97.1% (mq-deadline; mean read request 1024 KiB)"
std::string disk_summary(const DiskUsage& d);

// fio's key for a percentile: 99.9 -> "99.900000".
std::string percentile_key(double p);

// fio's latency object: min, max, mean, stddev, N and percentiles, in ns.
nlohmann::ordered_json latency_json(const LogLinearHistogram& h);

// Durability (report_durability.cpp). Times are relative to the first write of the repeat.
struct DurableFigures {
  std::uint64_t write_bytes = 0;
  std::optional<double> write_phase_s;  // first write handed over to the last completed
  std::optional<double> durable_s;      // first write to when every thread's writes were durable
  std::int64_t unsynced_writes = 0;
};
DurableFigures durable_figures(const RepeatResult& r);
// fio's "sync": {"total_ios", "lat_ns"}.
nlohmann::ordered_json sync_json(const DirectionStats& s);
// Adds "sync", "write_phase_s", "write_phase_bw_bytes", "durable_s", "durable_bw_bytes",
// "unsynced_writes" to a repeat's object.
void add_durability_json(nlohmann::ordered_json& rep, const RepeatResult& r);
nlohmann::ordered_json page_cache_json(const PageCacheUsage& u);
nlohmann::ordered_json vm_json(const VmDirtySettings& v);
// "Durability: write_phase 0.41 secs, durable after 0.52 secs (7.7 GiB/sec until durable)"
std::string durability_summary(const RepeatResult& r);
// "Page cache (system): Dirty 0 -> peak 812 -> 0 MiB, Writeback ..."
std::string page_cache_summary(const PageCacheUsage& u);

}  // namespace iowall::measure
