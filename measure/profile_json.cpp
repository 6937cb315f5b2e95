// A profile as JSON and back (measure/calibrate.hpp), and the unit strings it is written in.
#include "measure/calibrate.hpp"

#include <cmath>

#include <fmt/format.h>

#include "measure/calibrate_stages.hpp"
#include "models/ssd/read_service.hpp"
#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace iowall::calib {

using nlohmann::json;

namespace {

// The largest unit that leaves a value of at least 1, four significant digits: text
// that the unit parsers read back.
std::string unit_text(double v, std::initializer_list<std::pair<const char*, double>> units) {
  for (const auto& [name, scale] : units)
    if (std::fabs(v) >= scale) return fmt::format("{:.4g} {}", v / scale, name);
  return fmt::format("{:.4g} {}", v / std::prev(units.end())->second, std::prev(units.end())->first);
}

}  // namespace

std::string time_text(double s) {
  if (std::fabs(s) < 1e-12) return "0 ns";
  return unit_text(s, {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}});
}
std::string bandwidth_text(double bps) {
  if (bps == 0) return "0 B/s";
  return unit_text(bps, {{"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"kB/s", 1e3}, {"B/s", 1}});
}
std::string spread_text(double relative_se) {
  const double pct = stages::round_sig(100 * relative_se, 2);
  if (!(pct > 0) || pct >= 100) return "";
  return fmt::format(" +- {:g}%", pct);
}

std::string rate_text(double per_s) { return unit_text(per_s, {{"M/s", 1e6}, {"K/s", 1e3}, {"/s", 1}}); }

namespace {

json line_json(const SizeLine& l, const char* per_io_name, const char* bw_name) {
  json j = {{per_io_name, time_text(l.fixed_s)},
            {"r2", stages::round_sig(l.q.r2, 4)},
            {"rms_residual", time_text(l.q.rms_residual)},
            {"points", l.q.points}};
  if (l.bandwidth_identified) j[bw_name] = bandwidth_text(l.bandwidth_Bps);
  else j[bw_name] = nullptr;
  return j;
}

}  // namespace

json profile_to_json(const Profile& p) {
  json fits = json::object();
  if (p.storage) {
    fits["storage"] = {
        {"model", std::string(read_ceiling(read_service_name(p.storage->read)).formula) + "; fitted on log throughput"},
        {"read_service", read_service_name(p.storage->read)},
        {"read_latency", time_text(p.storage->latency_s)},
        {"read_bandwidth", bandwidth_text(p.storage->bandwidth_Bps)},
        {"max_iops", rate_text(p.storage->max_iops)},
        {"max_iops_constrained", p.iops_constrained},
        {"mdts", to_string(Bytes(static_cast<i64>(p.storage->mdts_bytes)))},
        {"latency_sigma", stages::round_sig(p.latency_sigma, 3)},
        {"r2", stages::round_sig(p.storage_q.r2, 4)},
        {"rms_log_residual", stages::round_sig(p.storage_q.rms_residual, 3)},
        {"points", p.storage_q.points},
        {"residuals", p.residuals}};
    if (p.storage->copy_cache_bytes > 0) {
      fits["storage"]["copy_cache"] = to_string(Bytes(static_cast<i64>(p.storage->copy_cache_bytes)));
      fits["storage"]["cold_copy_bandwidth"] = bandwidth_text(p.storage->cold_copy_Bps);
    }
  }
  if (p.cpu)
    fits["cpu"] = {{"model", "CPU time per I/O = per_io + per_MiB * size / MiB + per_call / qd"},
                   {"per_io", time_text(p.cpu->per_io_s)},
                   {"per_MiB", time_text(p.cpu->per_byte_s * 1048576)},
                   {"per_call", time_text(p.cpu->per_call_s)},
                   {"r2", stages::round_sig(p.cpu_q.r2, 4)},
                   {"points", p.cpu_q.points}};
  if (p.memcpy) fits["memcpy"] = line_json(*p.memcpy, "per_io", "memcpy_per_core");
  if (p.h2d) fits["h2d_copy"] = line_json(*p.h2d, "launch_cost", "copy_bandwidth");
  if (p.cufile) fits["cufile_compat"] = line_json(*p.cufile, "per_io_overhead", "extra_copy_bandwidth");
  stages::add_write_fits(p.writes, fits);
  // Each fitted parameter's standard error relative to its value, and the value with it
  // as the topology writes it (apply_profile).
  for (const auto& [name, se] : p.relative_se) {
    const char* fit = name.rfind("write_", 0) == 0 ? "drive_writes" : "storage";
    if (!fits.contains(fit) || !fits[fit].contains(name)) continue;
    fits[fit]["relative_se"][name] = stages::round_sig(se, 3);
    if (const std::string spread = spread_text(se); !spread.empty())
      fits[fit]["with_uncertainty"][name] = fits[fit][name].get<std::string>() + spread;
  }
  return {{"profile", p.name},
          {"iowall_version", "0.1.0"},
          {"machine", p.machine},
          {"topology", p.topology},
          {"fit_subset", p.subset},
          {"measurements", p.files},
          {"fitted_points", p.fitted_points},
          {"fits", fits},
          {"notes", p.notes}};
}

namespace stages {

const json& ProfileReader::at(const std::string& ptr) const {
  const json::json_pointer p(ptr);
  if (!j.contains(p)) throw InputError(path, ptr, "missing");
  return j.at(p);
}
std::string ProfileReader::text(const std::string& ptr) const {
  const json& v = at(ptr);
  if (!v.is_string()) throw InputError(path, ptr, "expected a unit string");
  return v.get<std::string>();
}
double ProfileReader::seconds(const std::string& ptr) const {
  Time t;
  const ParseResult r = parse_time(text(ptr), t);
  if (!r.ok) throw InputError(path, ptr, r.error);
  return static_cast<double>(t.ps) / 1e12;
}
double ProfileReader::bytes_per_s(const std::string& ptr) const {
  Bandwidth b;
  const ParseResult r = parse_bandwidth(text(ptr), b);
  if (!r.ok) throw InputError(path, ptr, r.error);
  return static_cast<double>(b.bps) / 8;
}
i64 ProfileReader::bytes(const std::string& ptr) const {
  Bytes b;
  const ParseResult r = parse_bytes(text(ptr), b);
  if (!r.ok) throw InputError(path, ptr, r.error);
  return b.n;
}
std::optional<SizeLine> ProfileReader::line(const std::string& ptr, const char* fixed, const char* bw) const {
  if (!j.contains(json::json_pointer(ptr))) return std::nullopt;
  SizeLine l;
  l.fixed_s = seconds(ptr + "/" + fixed);
  l.bandwidth_identified = !at(ptr + "/" + bw).is_null();
  if (l.bandwidth_identified) l.bandwidth_Bps = bytes_per_s(ptr + "/" + bw);
  return l;
}

}  // namespace stages

Profile profile_from_json(const json& j, const std::string& path) {
  if (!j.is_object() || !j.contains("profile") || !j.contains("fits"))
    throw InputError(path, "", "is not a profile of `iowall calibrate` (no profile and fits)");
  if (!j["fits"].is_object()) throw InputError(path, "/fits", "not an object of fits");
  for (const char* k : {"profile", "machine", "topology", "fit_subset", "iowall_version"})
    if (j.contains(k) && !j[k].is_string()) throw InputError(path, std::string("/") + k, "not a string");
  const stages::ProfileReader rd{j, path};
  Profile p;
  p.name = j.value("profile", "");
  p.machine = j.value("machine", "");
  p.topology = j.value("topology", "");
  p.subset = j.value("fit_subset", "all");
  if (j["fits"].contains("storage")) {
    StorageParams s;
    s.latency_s = rd.seconds("/fits/storage/read_latency");
    s.bandwidth_Bps = rd.bytes_per_s("/fits/storage/read_bandwidth");
    Rate r;
    const ParseResult pr = parse_rate(rd.text("/fits/storage/max_iops"), r);
    if (!pr.ok) throw InputError(path, "/fits/storage/max_iops", pr.error);
    s.max_iops = r.per_s_value();
    if (!(s.max_iops > 0)) throw InputError(path, "/fits/storage/max_iops", "must be more than 0");
    if (!(s.bandwidth_Bps > 0)) throw InputError(path, "/fits/storage/read_bandwidth", "must be more than 0");
    const json& fitted = rd.at("/fits/storage");
    for (const char* old : {"serial_reads", "batched_reads"})
      if (fitted.contains(old))
        throw InputError(path, std::string("/fits/storage/") + old,
                         "a profile of an older iowall: \"read_service\" (\"overlapped\", \"serial\" or \"batched\") "
                         "replaced serial_reads and batched_reads; run `iowall calibrate` again or edit the profile");
    if (fitted.contains("read_service") && !fitted["read_service"].is_string())
      throw InputError(path, "/fits/storage/read_service", "not a string");
    s.read = read_form(fitted.value("read_service", read_service_name(ReadForm::overlapped)), path,
                       "/fits/storage/read_service");
    if (fitted.contains("mdts")) s.mdts_bytes = static_cast<double>(rd.bytes("/fits/storage/mdts"));
    if (fitted.contains("copy_cache")) {
      s.copy_cache_bytes = static_cast<double>(rd.bytes("/fits/storage/copy_cache"));
      s.cold_copy_Bps = rd.bytes_per_s("/fits/storage/cold_copy_bandwidth");
      if (!(s.copy_cache_bytes > 0)) throw InputError(path, "/fits/storage/copy_cache", "must be more than 0 B");
      if (!(s.cold_copy_Bps > 0))
        throw InputError(path, "/fits/storage/cold_copy_bandwidth", "must be more than 0");
    }
    p.storage = s;
    if (!rd.at("/fits/storage/latency_sigma").is_number())
      throw InputError(path, "/fits/storage/latency_sigma", "not a number");
    if (!rd.at("/fits/storage/max_iops_constrained").is_boolean())
      throw InputError(path, "/fits/storage/max_iops_constrained", "not true or false");
    p.latency_sigma = rd.at("/fits/storage/latency_sigma").get<double>();
    p.iops_constrained = rd.at("/fits/storage/max_iops_constrained").get<bool>();
  }
  if (j["fits"].contains("cpu"))
    p.cpu = CpuCost{rd.seconds("/fits/cpu/per_io"), rd.seconds("/fits/cpu/per_MiB") / 1048576, rd.seconds("/fits/cpu/per_call")};
  p.memcpy = rd.line("/fits/memcpy", "per_io", "memcpy_per_core");
  p.h2d = rd.line("/fits/h2d_copy", "launch_cost", "copy_bandwidth");
  p.cufile = rd.line("/fits/cufile_compat", "per_io_overhead", "extra_copy_bandwidth");
  stages::read_write_fits(j, path, p);
  for (const char* fit : {"storage", "drive_writes"}) {
    const std::string ptr = std::string("/fits/") + fit + "/relative_se";
    if (!j.contains(json::json_pointer(ptr))) continue;
    const json& se = rd.at(ptr);
    if (!se.is_object()) throw InputError(path, ptr, "not an object");
    for (const auto& [name, v] : se.items()) {
      if (!v.is_number() || !(v.get<double>() >= 0)) throw InputError(path, ptr + "/" + name, "not a number of 0 or more");
      p.relative_se[name] = v.get<double>();
    }
  }
  return p;
}

Profile read_profile(const std::string& path) {
  return profile_from_json(load_json(path).json, path);
}

}  // namespace iowall::calib
