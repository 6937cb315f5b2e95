// The write fits of a profile as JSON and back (measure/calibrate.hpp): each fit with its
// model in words, its values in the units the simulator's parameters take, its quality,
// and its sources (the measured configurations and the files holding them).
#include <cmath>

#include <fmt/format.h>

#include "measure/calibrate_stages.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace iowall::calib::stages {

using nlohmann::json;

namespace {

json sources_json(const Sources& s) { return {{"points", s.points}, {"files", s.files}}; }

json bytes_or_null(const std::optional<std::uint64_t>& v) {
  return v ? json(to_string(Bytes(static_cast<i64>(*v)))) : json(nullptr);
}
json centisecs_or_null(const std::optional<std::uint64_t>& v) {
  return v ? json(time_text(static_cast<double>(*v) / 100)) : json(nullptr);
}
json number_or_null(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// The kernel's settings under the cpu_cached path's parameter names.
json vm_settings_json(const measure::MeasuredVm& v) {
  return {{"dirty_ratio", number_or_null(v.dirty_ratio)},
          {"dirty_background_ratio", number_or_null(v.dirty_background_ratio)},
          {"dirty_bytes", bytes_or_null(v.dirty_bytes)},
          {"dirty_background_bytes", bytes_or_null(v.dirty_background_bytes)},
          {"dirty_expire", centisecs_or_null(v.dirty_expire_centisecs)},
          {"dirty_writeback_interval", centisecs_or_null(v.dirty_writeback_centisecs)},
          {"dirtyable_memory", bytes_or_null(v.mem_available_bytes)}};
}

}  // namespace

void add_write_fits(const WriteFits& w, json& fits) {
  if (w.flush)
    fits["flush"] = {{"model", "median fsync latency of files written with O_DIRECT (nothing dirty in the page cache): "
                               "the file system's commit and the drive's flush, the nvme_ssd's flush_cost"},
                     {"flush_cost", time_text(w.flush->cost_s)},
                     {"points", w.flush->from.points.size()},
                     {"sources", sources_json(w.flush->from)}};
  if (w.drive)
    fits["drive_writes"] = {
        {"model", "throughput until durable = total / (total / min(concurrency * size / (cpu + 1/max_iops + "
                  "command/link + command/write_bandwidth + write_latency + (commands-1) * slowest stage [+ "
                  "flush_cost with O_DSYNC]), command / slowest stage, threads * size / cpu) + syncs * flush_cost); "
                  "stages: pipelined 1/max_iops, command/link, command/write_bandwidth; serial 1/max_iops + "
                  "command/write_bandwidth, command/link; fitted on log throughput"},
        {"write_service", w.drive->serial ? "serial" : "pipelined"},
        {"write_latency", time_text(w.drive->latency_s)},
        {"write_bandwidth", bandwidth_text(w.drive->bandwidth_Bps)},
        {"link", w.drive->link_Bps > 0 ? json(bandwidth_text(w.drive->link_Bps)) : json("not limiting")},
        {"r2", round_sig(w.drive->q.r2, 4)},
        {"rms_log_residual", round_sig(w.drive->q.rms_residual, 3)},
        {"points", w.drive->q.points},
        {"residuals", w.drive->residuals},
        {"sources", sources_json(w.drive->from)}};
  if (w.buffered) {
    const SizeLine& l = w.buffered->line;
    fits["buffered_writes"] = {
        {"model", "time per write() at QD1 = per_write + size / bandwidth (copy into the page cache, page "
                  "allocation, dirtying), from the write phase"},
        {"per_write", time_text(l.fixed_s)},
        {"bandwidth", l.bandwidth_identified ? json(bandwidth_text(l.bandwidth_Bps)) : json(nullptr)},
        {"r2", round_sig(l.q.r2, 4)},
        {"rms_residual", time_text(l.q.rms_residual)},
        {"points", l.q.points},
        {"sources", sources_json(w.buffered->from)}};
    if (w.buffered->io_wq_serial_s)
      fits["buffered_writes"]["io_wq"] = {
          {"model", "io_uring punts buffered writes to its io-wq worker, which runs one file's writes one at a time: "
                    "time per write with n in flight = max(serial + size / bandwidth, (per_write + size / bandwidth) "
                    "/ n); handoff = per_write - serial, a latency beside the worker; from the write phase"},
          {"serial", time_text(*w.buffered->io_wq_serial_s)},
          {"handoff", time_text(l.fixed_s - *w.buffered->io_wq_serial_s)},
          {"rms_log_residual", round_sig(w.buffered->io_wq_rms, 3)},
          {"points", w.buffered->io_wq_from.points.size()},
          {"sources", sources_json(w.buffered->io_wq_from)}};
  }
  if (w.writeback)
    fits["writeback"] = {
        {"model", "fsync of D dirty bytes = R/flusher + drive(R) + (ceil(D/R)-1) * max(R/flusher, R/drive rate at "
                  "writeback_depth) + flush_cost, R the writeback request; fitted on log fsync time"},
        {"flusher_bandwidth",
         w.writeback->flusher_identified ? json(bandwidth_text(w.writeback->flusher_Bps)) : json(nullptr)},
        {"writeback_request",
         w.writeback->request_bytes > 0 ? json(to_string(Bytes(w.writeback->request_bytes))) : json(nullptr)},
        {"vm", w.writeback->vm ? vm_settings_json(*w.writeback->vm) : json(nullptr)},
        {"r2", round_sig(w.writeback->q.r2, 4)},
        {"rms_log_residual", round_sig(w.writeback->q.rms_residual, 3)},
        {"points", w.writeback->q.points},
        {"residuals", w.writeback->residuals},
        {"sources", sources_json(w.writeback->from)}};
}

namespace {

// A bandwidth the simulator divides by: more than 0.
double rate(const ProfileReader& rd, const std::string& ptr) {
  const double v = rd.bytes_per_s(ptr);
  if (!(v > 0)) throw InputError(rd.path, ptr, "must be more than 0");
  return v;
}
std::optional<std::uint64_t> opt_bytes(const ProfileReader& rd, const std::string& ptr) {
  if (rd.null(ptr)) return std::nullopt;
  return static_cast<std::uint64_t>(rd.bytes(ptr));
}
std::optional<std::uint64_t> opt_centisecs(const ProfileReader& rd, const std::string& ptr) {
  if (rd.null(ptr)) return std::nullopt;
  return static_cast<std::uint64_t>(std::llround(rd.seconds(ptr) * 100));
}
std::optional<double> opt_number(const ProfileReader& rd, const std::string& ptr) {
  if (rd.null(ptr)) return std::nullopt;
  if (!rd.at(ptr).is_number()) throw InputError(rd.path, ptr, "expected a number or null");
  return rd.at(ptr).get<double>();
}

}  // namespace

void read_write_fits(const json& j, const std::string& path, Profile& p) {
  const json& fits = j.at("fits");
  const ProfileReader rd{j, path};
  if (fits.contains("flush")) {
    FlushFit f;
    f.cost_s = rd.seconds("/fits/flush/flush_cost");
    p.writes.flush = f;
  }
  if (fits.contains("drive_writes")) {
    DriveWriteFit d;
    d.latency_s = rd.seconds("/fits/drive_writes/write_latency");
    d.bandwidth_Bps = rate(rd, "/fits/drive_writes/write_bandwidth");
    const json& link = rd.at("/fits/drive_writes/link");
    if (!(link.is_string() && link == "not limiting")) d.link_Bps = rate(rd, "/fits/drive_writes/link");
    // Profiles from before the write services were told apart: pipelined.
    const std::string service = rd.at("/fits/drive_writes").value("write_service", "pipelined");
    if (service != "pipelined" && service != "serial")
      throw InputError(path, "/fits/drive_writes/write_service",
                       fmt::format("unknown write service \"{}\" (known: pipelined, serial)", service));
    d.serial = service == "serial";
    p.writes.drive = d;
  }
  if (const auto line = rd.line("/fits/buffered_writes", "per_write", "bandwidth")) {
    BufferedWriteFit b;
    b.line = *line;
    if (rd.at("/fits/buffered_writes").contains("io_wq")) b.io_wq_serial_s = rd.seconds("/fits/buffered_writes/io_wq/serial");
    p.writes.buffered = b;
  }
  if (fits.contains("writeback")) {
    WritebackFit w;
    w.flusher_identified = !rd.null("/fits/writeback/flusher_bandwidth");
    if (w.flusher_identified) w.flusher_Bps = rate(rd, "/fits/writeback/flusher_bandwidth");
    if (!rd.null("/fits/writeback/writeback_request")) w.request_bytes = rd.bytes("/fits/writeback/writeback_request");
    if (!rd.null("/fits/writeback/vm")) {
      const std::string v = "/fits/writeback/vm/";
      measure::MeasuredVm vm;
      vm.dirty_ratio = opt_number(rd, v + "dirty_ratio");
      vm.dirty_background_ratio = opt_number(rd, v + "dirty_background_ratio");
      vm.dirty_bytes = opt_bytes(rd, v + "dirty_bytes");
      vm.dirty_background_bytes = opt_bytes(rd, v + "dirty_background_bytes");
      vm.dirty_expire_centisecs = opt_centisecs(rd, v + "dirty_expire");
      vm.dirty_writeback_centisecs = opt_centisecs(rd, v + "dirty_writeback_interval");
      vm.mem_available_bytes = opt_bytes(rd, v + "dirtyable_memory");
      w.vm = vm;
    }
    p.writes.writeback = w;
  }
}

}  // namespace iowall::calib::stages
