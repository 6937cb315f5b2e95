#include "measure/measurement_json.hpp"
#include "sim/config/json_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace iowall::measure {
namespace {

using json = nlohmann::json;

// Whether `iowall measure` wrote in this mode (-I write, randwrite, rw, randrw).
bool writes(const std::string& io_mode) {
  return io_mode.find("write") != std::string::npos || io_mode.find("rw") != std::string::npos;
}

// Walks the document keeping the JSON pointer of where it is, for error messages.
class Reader {
public:
  explicit Reader(const std::string& path) : path_(path) {}

  [[noreturn]] void fail(const std::string& ptr, const std::string& msg) const { throw InputError(path_, ptr, msg); }

  const json& member(const json& obj, const std::string& ptr, const char* key) const {
    if (!obj.is_object()) fail(ptr, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(ptr + "/" + key, "missing");
    return *it;
  }
  double number(const json& obj, const std::string& ptr, const char* key) const {
    const json& v = member(obj, ptr, key);
    if (!v.is_number()) fail(ptr + "/" + key, fmt::format("expected a number, found {}", v.type_name()));
    return v.get<double>();
  }
  std::uint64_t count(const json& obj, const std::string& ptr, const char* key) const {
    const double d = number(obj, ptr, key);
    // 2^64 and above do not fit (and converting them would be undefined behaviour).
    if (d < 0 || d != std::floor(d) || d >= 18446744073709551616.0)
      fail(ptr + "/" + key, fmt::format("expected a whole number from 0 to 2^64-1, found {}", d));
    return member(obj, ptr, key).is_number_unsigned() ? member(obj, ptr, key).get<std::uint64_t>()
                                                       : static_cast<std::uint64_t>(d);
  }
  std::string text(const json& obj, const std::string& ptr, const char* key) const {
    const json& v = member(obj, ptr, key);
    if (!v.is_string()) fail(ptr + "/" + key, fmt::format("expected a string, found {}", v.type_name()));
    return v.get<std::string>();
  }
  // A count that must fit an int (threads, queue depth, repeat number).
  int small_count(const json& obj, const std::string& ptr, const char* key) const {
    const std::uint64_t n = count(obj, ptr, key);
    if (n > static_cast<std::uint64_t>(INT32_MAX)) fail(ptr + "/" + key, fmt::format("{} is too large", n));
    return static_cast<int>(n);
  }
  // A count that may be absent or null (a figure the kernel or an older iowall did not give).
  std::optional<std::uint64_t> optional_count(const json& obj, const std::string& ptr, const char* key) const {
    if (!obj.is_object() || !obj.contains(key) || obj.at(key).is_null()) return std::nullopt;
    return count(obj, ptr, key);
  }
  bool boolean(const json& obj, const std::string& ptr, const char* key) const {
    const json& v = member(obj, ptr, key);
    if (!v.is_boolean()) fail(ptr + "/" + key, fmt::format("expected true or false, found {}", v.type_name()));
    return v.get<bool>();
  }
  Bytes bytes(const json& obj, const std::string& ptr, const char* key) const {
    Bytes b;
    const ParseResult r = parse_bytes(text(obj, ptr, key), b);
    if (!r.ok) fail(ptr + "/" + key, r.error);
    return b;
  }

  MeasuredLatency latency(const json& j, const std::string& ptr) const {
    MeasuredLatency l;
    l.min_ns = count(j, ptr, "min");
    l.max_ns = count(j, ptr, "max");
    l.mean_ns = number(j, ptr, "mean");
    l.stddev_ns = number(j, ptr, "stddev");
    const json& p = member(j, ptr, "percentile");
    if (!p.is_object()) fail(ptr + "/percentile", "expected an object");
    for (const auto& [key, value] : p.items()) {
      const std::string kp = ptr + "/percentile/" + key;
      char* end = nullptr;
      const double pct = std::strtod(key.c_str(), &end);
      // Written so that NaN fails too: it would break the sort below.
      if (end == key.c_str() || *end != '\0' || !(pct >= 0 && pct <= 100)) fail(kp, "the key is not a percentage");
      if (!value.is_number_unsigned()) fail(kp, "expected a whole number of nanoseconds");
      l.percentiles_ns.emplace_back(pct, value.get<std::uint64_t>());
    }
    std::sort(l.percentiles_ns.begin(), l.percentiles_ns.end());
    return l;
  }

  MeasuredDirection direction(const json& j, const std::string& ptr) const {
    MeasuredDirection d;
    d.io_bytes = count(j, ptr, "io_bytes");
    d.bw_bytes = count(j, ptr, "bw_bytes");
    d.iops = number(j, ptr, "iops");
    d.runtime_ms = number(j, ptr, "runtime");
    d.ops = count(j, ptr, "total_ios");
    d.clat = latency(member(j, ptr, "clat_ns"), ptr + "/clat_ns");
    return d;
  }

  MeasuredOptions options(const json& j, const std::string& ptr) const {
    MeasuredOptions o;
    o.file = text(j, ptr, "file");
    o.target_kind = text(j, ptr, "target_kind");
    o.xfer_type = text(j, ptr, "xfer_type");
    o.io_mode = text(j, ptr, "io_mode");
    o.engine = text(j, ptr, "engine");
    o.size = bytes(j, ptr, "size");
    o.io_size = bytes(j, ptr, "io_size");
    o.threads = small_count(j, ptr, "threads");
    o.qd = small_count(j, ptr, "qd");
    o.rwmixread = small_count(j, ptr, "rwmixread");
    o.gpu = small_count(j, ptr, "gpu");
    const std::string rt = text(j, ptr, "runtime");
    if (!rt.empty()) {
      Time t;
      const ParseResult r = parse_time(rt, t);
      if (!r.ok) fail(ptr + "/runtime", r.error);
      o.runtime = t;
    }
    // Durability (read for modes that write): all four keys, or none (a file from before
    // durable writes).
    static constexpr const char* kDurability[] = {"end_fsync", "fsync", "fdatasync", "sync"};
    const bool any = std::any_of(std::begin(kDurability), std::end(kDurability), [&](const char* k) { return j.contains(k); });
    if (writes(o.io_mode) && any) {
      MeasuredDurability d;
      d.end_fsync = boolean(j, ptr, "end_fsync");
      d.fsync_every = small_count(j, ptr, "fsync");
      d.fdatasync_every = small_count(j, ptr, "fdatasync");
      const std::string sync = text(j, ptr, "sync");
      if (sync != "none" && sync != "dsync") fail(ptr + "/sync", fmt::format("\"{}\": expected none or dsync", sync));
      d.dsync = sync == "dsync";
      o.durability = d;
    }
    return o;
  }

  MeasuredVm vm(const json& j, const std::string& ptr) const {
    if (!j.is_object()) fail(ptr, "expected an object");
    MeasuredVm v;
    if (auto n = optional_count(j, ptr, "dirty_ratio")) v.dirty_ratio = static_cast<double>(*n);
    if (auto n = optional_count(j, ptr, "dirty_background_ratio")) v.dirty_background_ratio = static_cast<double>(*n);
    v.dirty_bytes = optional_count(j, ptr, "dirty_bytes");
    v.dirty_background_bytes = optional_count(j, ptr, "dirty_background_bytes");
    v.dirty_expire_centisecs = optional_count(j, ptr, "dirty_expire_centisecs");
    v.dirty_writeback_centisecs = optional_count(j, ptr, "dirty_writeback_centisecs");
    v.mem_total_bytes = optional_count(j, ptr, "mem_total_bytes");
    v.mem_available_bytes = optional_count(j, ptr, "mem_available_bytes");
    return v;
  }

  // A repeat's write figures, where it has them.
  void write_figures(const json& rep, const std::string& ptr, MeasurementPoint& p) const {
    if (auto it = rep.find("write_phase_s"); it != rep.end() && !it->is_null())
      p.write_phase_s = number(rep, ptr, "write_phase_s");
    if (auto it = rep.find("sync"); it != rep.end() && !it->is_null()) {
      const std::string sp = ptr + "/sync";
      MeasuredSyncs s;
      s.calls = count(*it, sp, "total_ios");
      s.mean_ns = number(member(*it, sp, "lat_ns"), sp + "/lat_ns", "mean");
      p.syncs = s;
    }
  }
  // The block queue's largest request, where the repeat recorded its disk.
  void request_limit(const json& rep, const std::string& ptr, MeasurementPoint& p) const {
    if (auto it = rep.find("disk"); it != rep.end() && !it->is_null())
      p.max_request_kib = optional_count(*it, ptr + "/disk", "max_sectors_kb");
  }

private:
  const std::string& path_;
};

}  // namespace

std::optional<std::uint64_t> MeasuredLatency::at(double percent) const {
  for (const auto& [p, v] : percentiles_ns)
    if (std::fabs(p - percent) < 1e-9) return v;
  return std::nullopt;
}

MeasurementFile parse_measurement_json(const json& j, const std::string& path) {
  Reader rd(path);
  MeasurementFile f;
  f.path = path;
  f.version = rd.text(j, "", "iowall_version");
  const json& iw = rd.member(j, "", "iowall");
  if (iw.is_object() && iw.contains("mode") && iw["mode"] == "copy")
    rd.fail("/iowall/mode", "this is a --copy measurement (memory copies, no storage), not an I/O measurement");
  const json& cf = rd.member(iw, "/iowall", "cufile");
  if (cf.is_object()) {
    const json& cm = rd.member(cf, "/iowall/cufile", "compat_mode");
    if (cm.is_boolean()) f.cufile_compat_mode = cm.get<bool>();
    else if (!cm.is_null()) rd.fail("/iowall/cufile/compat_mode", "expected true, false or null");
  } else if (!cf.is_null()) {
    rd.fail("/iowall/cufile", "expected an object or null");
  }
  const MeasuredOptions opts = rd.options(rd.member(iw, "/iowall", "options"), "/iowall/options");
  // What only writes use is read only for modes that write: a read file is read as before.
  const bool writing = writes(opts.io_mode);
  if (auto it = iw.find("vm"); writing && it != iw.end() && !it->is_null()) f.vm = rd.vm(*it, "/iowall/vm");
  const json& reps = rd.member(iw, "/iowall", "repeats");
  if (!reps.is_array()) rd.fail("/iowall/repeats", "expected an array");
  if (reps.empty()) rd.fail("/iowall/repeats", "holds no measurement");
  for (std::size_t i = 0; i < reps.size(); ++i) {
    const std::string ptr = fmt::format("/iowall/repeats/{}", i);
    MeasurementPoint p;
    p.options = opts;
    p.repeat = rd.small_count(reps[i], ptr, "repeat");
    p.first_done_s = rd.number(reps[i], ptr, "first_done_s");
    p.last_done_s = rd.number(reps[i], ptr, "last_done_s");
    if (auto it = reps[i].find("page_cache_resident_at_start"); it != reps[i].end() && !it->is_null()) {
      const double v = rd.number(reps[i], ptr, "page_cache_resident_at_start");
      if (v < 0 || v > 1) rd.fail(ptr + "/page_cache_resident_at_start", fmt::format("expected 0 to 1, found {}", v));
      p.page_cache_resident_at_start = v;
    }
    p.read = rd.direction(rd.member(reps[i], ptr, "read"), ptr + "/read");
    p.write = rd.direction(rd.member(reps[i], ptr, "write"), ptr + "/write");
    rd.request_limit(reps[i], ptr, p);
    if (writing) rd.write_figures(reps[i], ptr, p);
    f.points.push_back(std::move(p));
  }
  return f;
}

MeasurementFile parse_measurement_text(const std::string& text, const std::string& path) {
  return parse_measurement_json(parse_json_text(text, path).json, path);
}

MeasurementFile read_measurement_file(const std::string& path) {
  return parse_measurement_json(load_json(path).json, path);
}

}  // namespace iowall::measure
