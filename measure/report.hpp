// Turns a measurement into fio-shaped JSON (so jq scripts written for fio work on it)
// and into gdsio's one-line summary for people.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "measure/results.hpp"

namespace iowall::measure {

inline constexpr const char* kIowallVersion = "0.1.0";

// Top level: "iowall_version", "time", "jobs" (one per thread and repeat; "groupid" is
// the repeat, 0-based), "disk_util" (fio's, summed over the repeats), and "iowall" (transfer type, engine, cuFile mode, options, and
// per repeat the aggregate over threads with first_done_s / last_done_s).
nlohmann::ordered_json to_json(const RunInfo& info);

// "IoType: READ XferType: CPUONLY Threads: 4 DataSetSize: ... total_time 0.48 secs"
std::string gdsio_summary(const RunInfo& info, const RepeatResult& r);

// fio's "Disk stats" line for the device under a repeat:
// "Disk stats (read/write): vda: ios=64/0, merge=0/0, ..., util=97.1% (mq-deadline; mean read request 1024 KiB)"
std::string disk_summary(const DiskUsage& d);

// fio's key for a percentile: 99.9 -> "99.900000".
std::string percentile_key(double p);

}  // namespace iowall::measure
