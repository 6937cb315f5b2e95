#include "measure/report.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace iowall::measure {

namespace {

using ojson = nlohmann::ordered_json;

ojson disk_json(const DiskUsage& d) {
  const DiskCounters& c = d.delta;
  return {{"name", d.name},           {"scheduler", d.scheduler}, {"max_sectors_kb", d.max_request_kib}, {"read_ios", c.read_ios},
          {"write_ios", c.write_ios}, {"read_merges", c.read_merges},       {"write_merges", c.write_merges},
          {"read_sectors", c.read_sectors}, {"write_sectors", c.write_sectors}, {"read_ticks", c.read_ticks_ms},
          {"write_ticks", c.write_ticks_ms}, {"in_queue", c.time_in_queue_ms}, {"util", 100.0 * d.util}};
}

// The repeats' disk counters added up, as fio reports one figure for its whole run.
std::optional<DiskUsage> disk_total(const RunInfo& info) {
  std::optional<DiskUsage> total;
  for (const auto& r : info.repeats) {
    if (!r.disk) continue;
    if (!total) {
      total = *r.disk;
      continue;
    }
    DiskCounters& t = total->delta;
    const DiskCounters& c = r.disk->delta;
    for (auto [sum, add] : {std::pair{&t.read_ios, c.read_ios}, {&t.read_merges, c.read_merges},
                            {&t.read_sectors, c.read_sectors}, {&t.read_ticks_ms, c.read_ticks_ms},
                            {&t.write_ios, c.write_ios}, {&t.write_merges, c.write_merges},
                            {&t.write_sectors, c.write_sectors}, {&t.write_ticks_ms, c.write_ticks_ms},
                            {&t.io_ticks_ms, c.io_ticks_ms}, {&t.time_in_queue_ms, c.time_in_queue_ms}})
      *sum += add;
    total->interval_s += r.disk->interval_s;
  }
  if (total && total->interval_s > 0)
    total->util = std::min(1.0, static_cast<double>(total->delta.io_ticks_ms) / 1000.0 / total->interval_s);
  return total;
}

std::string percentile_key_impl(double p) { return fmt::format("{:.6f}", p); }

ojson clat_json_impl(const LogLinearHistogram& h) {
  ojson c;
  c["min"] = h.min();
  c["max"] = h.max();
  c["mean"] = h.mean();
  c["stddev"] = h.stddev();
  c["N"] = h.count();
  ojson p = ojson::object();
  if (h.count() > 0)
    for (double q : LogLinearHistogram::default_percentiles()) p[percentile_key_impl(q)] = h.percentile(q);
  c["percentile"] = std::move(p);
  return c;
}

// fio's latency object without percentiles (fio writes those for clat_ns only).
ojson summary_latency_json(const LogLinearHistogram& h) {
  ojson c = clat_json_impl(h);
  c.erase("percentile");
  return c;
}

// One direction, as fio writes it; `seconds` is the time the bytes took. Each operation's
// latency is timed from its submission to its completion, which is fio's lat_ns; fio's
// clat_ns leaves out the submission (slat_ns), which is not timed apart here: clat_ns
// holds the same samples and slat_ns has none (N = 0), as fio writes them for its
// synchronous engines (psync), where submission and completion are one call.
ojson direction_json(const DirectionStats& d, double seconds) {
  ojson j;
  const double bw = seconds > 0 ? static_cast<double>(d.bytes) / seconds : 0.0;
  j["io_bytes"] = d.bytes;
  j["io_kbytes"] = d.bytes / 1024;
  j["bw_bytes"] = static_cast<std::uint64_t>(bw);
  j["bw"] = static_cast<std::uint64_t>(bw / 1024);  // KiB/s, as fio
  j["iops"] = seconds > 0 ? static_cast<double>(d.ops) / seconds : 0.0;
  // ms, as fio; 0 for a direction that saw no I/O, as fio
  j["runtime"] = d.ops ? static_cast<std::uint64_t>(seconds * 1000.0 + 0.5) : 0;
  j["total_ios"] = d.ops;
  j["slat_ns"] = summary_latency_json(LogLinearHistogram());
  j["clat_ns"] = clat_json_impl(d.clat_ns);
  j["lat_ns"] = summary_latency_json(d.clat_ns);
  return j;
}

std::string io_type(const MeasureOptions& o) {
  std::string s = o.mode_text;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

ojson options_json(const RunInfo& info) {
  const MeasureOptions& o = info.options;
  ojson j;
  j["file"] = o.file;
  j["target_kind"] = std::string(name(info.target.kind));
  j["size"] = to_string(info.target.size);
  j["io_size"] = to_string(o.io_size);
  j["threads"] = o.threads;
  j["xfer_type"] = std::string(name(o.xfer));
  j["io_mode"] = o.mode_text;
  j["rwmixread"] = o.mode.read_pct;
  j["engine"] = std::string(name(o.engine));
  j["qd"] = o.qd;
  j["runtime"] = o.runtime ? to_string(*o.runtime) : std::string();
  j["gpu"] = o.gpu;
  j["repeat"] = o.repeat;
  j["invalidate"] = o.invalidate;
  j["pageable"] = o.pageable;
  j["seed"] = o.seed;
  j["group_reporting"] = o.group_reporting;
  j["direct"] = uses_odirect(o.xfer);
  const Durability& d = o.durability;
  j["end_fsync"] = d.end_fsync;
  j["fsync"] = d.fsync_every ? ojson(*d.fsync_every) : ojson(0);  // fio's: 0 is none
  j["fdatasync"] = d.fdatasync_every ? ojson(*d.fdatasync_every) : ojson(0);
  j["sync"] = d.dsync ? "dsync" : "none";  // O_DSYNC on the target
  return j;
}

void add(DirectionStats& sum, const DirectionStats& d) {
  sum.clat_ns.merge(d.clat_ns);
  sum.ops += d.ops;
  sum.bytes += d.bytes;
}

// One thread's job, as fio writes a job without group reporting.
ojson thread_job_json(const MeasureOptions& o, const RepeatResult& r, const ThreadResult& t) {
  ojson job;
  job["jobname"] = fmt::format("{}.t{}", name(o.xfer), t.index);
  job["groupid"] = r.repeat - 1;
  job["error"] = 0;
  job["job options"] = {{"offset", std::to_string(t.region_offset)}, {"size", std::to_string(t.region_bytes)}};
  job["read"] = direction_json(t.read, t.elapsed_s());
  job["write"] = direction_json(t.write, t.elapsed_s());
  job["sync"] = sync_json(t.sync);
  const double el = t.elapsed_s();
  job["usr_cpu"] = el > 0 ? 100.0 * t.usr_s / el : 0.0;
  job["sys_cpu"] = el > 0 ? 100.0 * t.sys_s / el : 0.0;
  job["ctx"] = t.ctx_switches;
  job["elapsed"] = el;
  if (uses_cufile(o.xfer)) job["cufile_buffer_registered"] = t.cufile_buffer_registered;
  if (t.host_buffer_bytes > 0)
    job["host_buffer"] = {{"bytes", t.host_buffer_bytes},
                          {"huge_page_bytes", t.host_buffer_huge_bytes},
                          {"pages", name(o.buffer_pages)},
                          {"contiguous_runs", t.host_buffer_runs >= 0 ? nlohmann::json(t.host_buffer_runs) : nlohmann::json()}};
  return job;
}

// fio's --group_reporting: one job for the whole repeat (fio's group), named as the
// threads are, with every thread's operations and latencies, bandwidth over the time
// until the slowest thread finished, and CPU time as a percentage of one core.
ojson group_job_json(const MeasureOptions& o, const RepeatResult& r) {
  DirectionStats read, write, sync;
  double usr = 0, sys = 0;
  std::uint64_t ctx = 0;
  std::int64_t bytes = 0;
  for (const auto& t : r.threads) {
    add(read, t.read);
    add(write, t.write);
    add(sync, t.sync);
    usr += t.usr_s;
    sys += t.sys_s;
    ctx += t.ctx_switches;
    bytes += t.region_bytes;
  }
  const double el = r.last_done_s;
  ojson job;
  job["jobname"] = std::string(name(o.xfer));
  job["groupid"] = r.repeat - 1;
  job["error"] = 0;
  job["job options"] = {{"numjobs", std::to_string(r.threads.size())}, {"size", std::to_string(bytes)}};
  job["read"] = direction_json(read, el);
  job["write"] = direction_json(write, el);
  job["sync"] = sync_json(sync);
  job["usr_cpu"] = el > 0 ? 100.0 * usr / el : 0.0;
  job["sys_cpu"] = el > 0 ? 100.0 * sys / el : 0.0;
  job["ctx"] = ctx;
  job["elapsed"] = el;
  return job;
}

}  // namespace

std::string percentile_key(double p) { return percentile_key_impl(p); }

ojson latency_json(const LogLinearHistogram& h) { return clat_json_impl(h); }

ojson to_json(const RunInfo& info) {
  const MeasureOptions& o = info.options;
  ojson root;
  root["iowall_version"] = fmt::format("iowall-{}", kIowallVersion);
  root["timestamp"] = info.unix_time;
  root["jobs"] = ojson::array();
  ojson repeats = ojson::array();
  for (const auto& r : info.repeats) {
    DirectionStats read_all, write_all;
    double usr = 0, sys = 0;
    if (o.group_reporting) root["jobs"].push_back(group_job_json(o, r));
    for (const auto& t : r.threads) {
      if (!o.group_reporting) root["jobs"].push_back(thread_job_json(o, r, t));
      read_all.clat_ns.merge(t.read.clat_ns);
      read_all.ops += t.read.ops;
      read_all.bytes += t.read.bytes;
      write_all.clat_ns.merge(t.write.clat_ns);
      write_all.ops += t.write.ops;
      write_all.bytes += t.write.bytes;
      usr += t.usr_s;
      sys += t.sys_s;
    }
    // The group figure: all bytes over the time until the slowest thread finished.
    ojson rep;
    rep["repeat"] = r.repeat;
    rep["first_done_s"] = r.first_done_s;
    rep["last_done_s"] = r.last_done_s;
    rep["disk"] = r.disk ? disk_json(*r.disk) : ojson(nullptr);
    rep["page_cache_resident_at_start"] =
        r.page_cache_resident_at_start ? ojson(*r.page_cache_resident_at_start) : ojson(nullptr);
    rep["read"] = direction_json(read_all, r.last_done_s);
    rep["write"] = direction_json(write_all, r.last_done_s);
    add_durability_json(rep, r);
    rep["page_cache"] = page_cache_json(r.page_cache);
    rep["usr_cpu"] = r.last_done_s > 0 ? 100.0 * usr / r.last_done_s : 0.0;  // percent of one core
    rep["sys_cpu"] = r.last_done_s > 0 ? 100.0 * sys / r.last_done_s : 0.0;
    repeats.push_back(std::move(rep));
  }
  root["disk_util"] = ojson::array();
  if (const auto total = disk_total(info)) root["disk_util"].push_back(disk_json(*total));
  ojson iw;
  iw["xfer_type"] = std::string(name(o.xfer));
  iw["gdsio_xfer_type"] = std::string(gdsio_name(o.xfer));
  iw["engine"] = uses_cufile(o.xfer) ? std::string("cufile") : std::string(name(o.engine));
  iw["io_type"] = io_type(o);
  if (info.cufile) {
    ojson cf;
    cf["library"] = info.cufile_library;
    cf["version"] = info.cufile->version;
    cf["compat_mode"] = info.cufile->compat ? ojson(*info.cufile->compat) : ojson(nullptr);
    cf["reason"] = info.cufile->reason;
    cf["nvfs_version"] = fmt::format("{}.{}", info.cufile->nvfs_major, info.cufile->nvfs_minor);
    iw["cufile"] = std::move(cf);
  } else {
    iw["cufile"] = nullptr;
  }
  iw["cuda_library"] = info.cuda_library;
  if (!info.repeats.empty()) {
    iw["first_done_s"] = info.repeats.back().first_done_s;
    iw["last_done_s"] = info.repeats.back().last_done_s;
  }
  iw["options"] = options_json(info);
  iw["vm"] = vm_json(info.vm);
  iw["repeats"] = std::move(repeats);
  root["iowall"] = std::move(iw);
  return root;
}

std::string disk_summary(const DiskUsage& d) {
  const DiskCounters& c = d.delta;
  std::string s = fmt::format(
      "Disk stats (read/write): {}: ios={}/{}, merge={}/{}, sectors={}/{}, ticks={}/{}, in_queue={}, util={:.1f}%",
      d.name, c.read_ios, c.write_ios, c.read_merges, c.write_merges, c.read_sectors, c.write_sectors,
      c.read_ticks_ms, c.write_ticks_ms, c.time_in_queue_ms, 100.0 * d.util);
  if (!d.scheduler.empty()) s += fmt::format(" (scheduler {}", d.scheduler);
  if (c.read_ios > 0)
    s += fmt::format("{}mean read request {:.0f} KiB", d.scheduler.empty() ? " (" : "; ", d.mean_read_request_bytes() / 1024);
  if (!d.scheduler.empty() || c.read_ios > 0) s += ")";
  return s;
}

std::string gdsio_summary(const RunInfo& info, const RepeatResult& r) {
  const MeasureOptions& o = info.options;
  std::uint64_t bytes = 0, ops = 0;
  LogLinearHistogram all;
  for (const auto& t : r.threads) {
    bytes += t.read.bytes + t.write.bytes;
    ops += t.read.ops + t.write.ops;
    all.merge(t.read.clat_ns);
    all.merge(t.write.clat_ns);
  }
  const double secs = r.last_done_s;
  const double gib_s = secs > 0 ? static_cast<double>(bytes) / secs / (1024.0 * 1024.0 * 1024.0) : 0.0;
  std::string s = fmt::format(
      "IoType: {} XferType: {} Threads: {} DataSetSize: {}/{}(KiB) IOSize: {}(KiB) Throughput: {:.6f} GiB/sec, "
      "Avg_Latency: {:.6f} usecs ops: {} total_time {:.6f} secs",
      io_type(o), gdsio_name(o.xfer), o.threads, bytes / 1024, info.target.size.n / 1024, o.io_size.n / 1024, gib_s,
      all.mean() / 1000.0, ops, secs);
  if (o.repeat > 1) s += fmt::format(" repeat {}/{}", r.repeat, o.repeat);
  return s;
}

}  // namespace iowall::measure
