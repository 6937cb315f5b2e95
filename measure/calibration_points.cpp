#include "measure/calibration_points.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "sim/config/json_file.hpp"
#include "sim/core/error.hpp"

namespace iowall::calib {
namespace {

// The version of the measurement format this reader understands.
constexpr const char* kMeasureVersion = "iowall-0.1.0";

nlohmann::json read_json(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw InputError(path, "", "is a directory, not a measurement file");
  std::ifstream in(path);
  if (!in) throw InputError(path, "", "cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_json_text(ss.str(), path).json;  // InputError with line and column
}

double number_at(const nlohmann::json& j, const std::string& path, const std::string& ptr) {
  const nlohmann::json::json_pointer p(ptr);
  if (!j.contains(p) || !j.at(p).is_number()) throw InputError(path, ptr, "expected a number");
  return j.at(p).get<double>();
}

// Whether a repeat wrote (true) or read (false); InputError for a mode calibration does
// not fit, or writes that do not say how they were made durable.
bool check_mode(const measure::MeasuredOptions& o, const std::string& path) {
  if (o.io_mode == "read" || o.io_mode == "randread") return false;
  if (o.io_mode == "rw" || o.io_mode == "randrw")
    throw InputError(path, "/iowall/options/io_mode",
                     fmt::format("\"{}\": calibration fits reads and writes measured apart, not mixed", o.io_mode));
  if (o.io_mode != "write" && o.io_mode != "randwrite")
    throw InputError(path, "/iowall/options/io_mode",
                     fmt::format("\"{}\" is not an I/O mode calibration knows (read, randread, write, randwrite)",
                                 o.io_mode));
  if (!o.durability)
    throw InputError(path, "/iowall/options/end_fsync",
                     "missing: a write measurement must say how its writes were made durable (end_fsync, fsync, "
                     "fdatasync and sync, as `iowall measure` records them)");
  return true;
}

}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string PointGroup::key() const {
  const std::string k = fmt::format("{} {} {} qd{} t{}", xfer, engine, to_string(Bytes(io_size)), qd, threads);
  if (!writes()) return k;
  const measure::MeasuredDurability& d = durable_as;
  const std::string how = d.dsync                ? "o_dsync"
                          : d.fsync_every        ? fmt::format("fsync {}", d.fsync_every)
                          : d.fdatasync_every    ? fmt::format("fdatasync {}", d.fdatasync_every)
                          : d.end_fsync          ? "end_fsync"
                                                 : "not durable";
  const bool also_at_end = d.end_fsync && (d.fsync_every || d.fdatasync_every);
  return fmt::format("{} {} {}{}", k, io_mode, how, also_at_end ? " end_fsync" : "");
}

std::string PointGroup::durability() const {
  if (!writes()) return "none";
  if (durable_as.dsync) return "o_dsync";
  if (durable_as.fsync_every || durable_as.fdatasync_every) return "fsync_each";
  return durable_as.end_fsync ? "fsync_end" : "none";
}

#define IOWALL_GROUP_MEDIAN(NAME, FIELD)        \
  double PointGroup::NAME() const {             \
    std::vector<double> v;                      \
    for (const Sample& s : samples) v.push_back(s.FIELD); \
    return median(std::move(v));                \
  }
IOWALL_GROUP_MEDIAN(median_bw, bw_bytes_per_s)
IOWALL_GROUP_MEDIAN(median_iops, iops)
IOWALL_GROUP_MEDIAN(median_cpu_s_per_io, cpu_s_per_io)
IOWALL_GROUP_MEDIAN(median_p50_ns, clat_p50_ns)
IOWALL_GROUP_MEDIAN(median_p90_ns, clat_p90_ns)
#undef IOWALL_GROUP_MEDIAN

double PointGroup::min_bw() const {
  double m = samples.empty() ? 0 : samples[0].bw_bytes_per_s;
  for (const Sample& s : samples) m = std::min(m, s.bw_bytes_per_s);
  return m;
}
double PointGroup::max_bw() const {
  double m = 0;
  for (const Sample& s : samples) m = std::max(m, s.bw_bytes_per_s);
  return m;
}

namespace {
std::optional<double> median_of(const std::vector<Sample>& samples, std::optional<double> Sample::*field) {
  std::vector<double> v;
  for (const Sample& s : samples)
    if (s.*field) v.push_back(*(s.*field));
  if (v.empty()) return std::nullopt;
  return median(std::move(v));
}
}  // namespace

std::optional<double> PointGroup::median_write_phase_s() const { return median_of(samples, &Sample::write_phase_s); }
std::optional<double> PointGroup::median_sync_s() const { return median_of(samples, &Sample::sync_mean_s); }

std::optional<double> PointGroup::median_cached_at_start() const {
  std::vector<double> v;
  for (const Sample& s : samples) {
    if (!s.cached_at_start) return std::nullopt;
    v.push_back(*s.cached_at_start);
  }
  if (v.empty()) return std::nullopt;
  return median(std::move(v));
}

std::vector<PointGroup> load_points(const std::vector<std::string>& files) {
  if (files.empty()) throw InputError("", "MEASUREMENTS", "no measurement file given");
  std::map<std::string, PointGroup> groups;
  for (const std::string& path : files) {
    const nlohmann::json j = read_json(path);
    if (!j.is_object() || !j.contains("iowall_version") || !j.contains("iowall"))
      throw InputError(path, "", "is not a measurement file of `iowall measure` (no iowall_version and iowall)");
    if (!j["iowall_version"].is_string() || j["iowall_version"] != kMeasureVersion)
      throw InputError(path, "/iowall_version",
                       fmt::format("measurement format {} is not the one this build reads ({})",
                                   j["iowall_version"].dump(), kMeasureVersion));
    const measure::MeasurementFile f = measure::parse_measurement_json(j, path);
    for (std::size_t i = 0; i < f.points.size(); ++i) {
      const measure::MeasurementPoint& p = f.points[i];
      const bool writes = check_mode(p.options, path);
      const measure::MeasuredDirection& d = writes ? p.write : p.read;
      const char* dir = writes ? "write" : "read";
      const std::string ptr = fmt::format("/iowall/repeats/{}", i);
      Sample s;
      s.bw_bytes_per_s = static_cast<double>(d.bw_bytes);
      s.iops = d.iops;
      s.clat_mean_ns = d.clat.mean_ns;
      s.clat_p50_ns = static_cast<double>(d.clat.at(50).value_or(0));
      s.clat_p90_ns = static_cast<double>(d.clat.at(90).value_or(0));
      const double cpu_pct = number_at(j, path, ptr + "/usr_cpu") + number_at(j, path, ptr + "/sys_cpu");
      if (d.ops > 0) s.cpu_s_per_io = cpu_pct / 100.0 * p.last_done_s / static_cast<double>(d.ops);
      s.cached_at_start = p.page_cache_resident_at_start;
      if (d.ops == 0 || s.bw_bytes_per_s <= 0)
        throw InputError(path, ptr + "/" + dir, fmt::format("no {}s were measured", dir));
      s.write_phase_s = p.write_phase_s;
      if (p.syncs && p.syncs->calls > 0) s.sync_mean_s = p.syncs->mean_ns / 1e9;
      PointGroup g;
      g.xfer = p.options.xfer_type;
      g.engine = p.options.engine;
      g.io_mode = p.options.io_mode;
      g.file = path;
      g.io_size = p.options.io_size.n;
      g.qd = p.options.qd;
      g.threads = p.options.threads;
      if (p.max_request_kib) g.max_request_bytes = static_cast<i64>(*p.max_request_kib) * 1024;
      if (writes) {
        g.durable_as = *p.options.durability;
        g.size = p.options.size.n;
        g.vm = f.vm;
      }
      auto [it, inserted] = groups.try_emplace(g.key() + " " + g.io_mode, g);
      // Repeats of one write configuration wrote the same amount: what an fsync waits for depends on it.
      if (writes && it->second.size != g.size)
        throw InputError(path, "/iowall/options/size",
                         fmt::format("{}: {} here, {} in another repeat of the same configuration ({})",
                                     g.key(), to_string(Bytes(g.size)), to_string(Bytes(it->second.size)),
                                     it->second.file));
      if (std::find(it->second.files.begin(), it->second.files.end(), path) == it->second.files.end())
        it->second.files.push_back(path);
      it->second.samples.push_back(s);
      if (f.cufile_compat_mode) {
        // A group whose repeats disagree about the mode is not one configuration.
        auto& mode = it->second.cufile_compat;
        if (mode && *mode != *f.cufile_compat_mode)
          throw InputError(path, "/iowall/cufile/compat_mode",
                           fmt::format("{}: cuFile ran in compatibility mode in some repeats and not in others",
                                       g.key()));
        mode = f.cufile_compat_mode;
      }
    }
  }
  std::vector<PointGroup> out;
  for (auto& [k, g] : groups) out.push_back(std::move(g));
  // Stable order for reports: type, then size, queue depth, threads.
  // Writes of one configuration made durable in different ways: by their keys.
  std::sort(out.begin(), out.end(), [](const PointGroup& a, const PointGroup& b) {
    const std::string ka = a.writes() ? a.key() : std::string(), kb = b.writes() ? b.key() : std::string();
    return std::tie(a.xfer, a.engine, a.io_mode, a.io_size, a.qd, a.threads, ka) <
           std::tie(b.xfer, b.engine, b.io_mode, b.io_size, b.qd, b.threads, kb);
  });
  return out;
}

Subset::Subset(const std::string& spec) : spec_(spec) {
  if (spec == "all" || spec == "none") return;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
    if (item.empty()) continue;
    const std::size_t op_at = item.find_first_of("=!<>");
    if (op_at == std::string::npos || op_at == 0)
      throw InputError("", "--fit-subset", fmt::format("\"{}\" is not KEY OP VALUE (e.g. qd=1, io_size<=64KiB)", item));
    std::size_t val_at = op_at + 1;
    if (val_at < item.size() && item[val_at] == '=') ++val_at;
    Condition c{item.substr(0, op_at), item.substr(op_at, val_at - op_at), item.substr(val_at)};
    static const std::vector<std::string> ops{"=", "!=", "<", "<=", ">", ">="};
    if (std::find(ops.begin(), ops.end(), c.op) == ops.end() || c.text.empty())
      throw InputError("", "--fit-subset", fmt::format("\"{}\": expected one of = != < <= > >= and a value", item));
    if (c.key == "io_size") {
      Bytes b;
      const ParseResult r = parse_bytes(c.text, b);
      if (!r.ok) throw InputError("", "--fit-subset", r.error);
      c.number = static_cast<double>(b.n);
    } else if (c.key == "qd" || c.key == "threads" || c.key == "concurrency") {
      try {
        std::size_t used = 0;
        c.number = std::stod(c.text, &used);
        if (used != c.text.size()) throw std::invalid_argument(c.text);
      } catch (const std::exception&) {
        throw InputError("", "--fit-subset", fmt::format("\"{}\": {} takes a number", item, c.key));
      }
    } else if (c.key == "xfer" || c.key == "engine" || c.key == "io_mode" || c.key == "durability") {
      if (c.op != "=" && c.op != "!=")
        throw InputError("", "--fit-subset", fmt::format("\"{}\": {} takes = or !=", item, c.key));
    } else {
      throw InputError("", "--fit-subset",
                       fmt::format("unknown key \"{}\" (known: io_size, qd, threads, concurrency, xfer, engine, io_mode, "
                                   "durability)",
                                   c.key));
    }
    conditions_.push_back(c);
  }
  if (conditions_.empty()) throw InputError("", "--fit-subset", "the subset is empty (give conditions, or all)");
}

bool Subset::contains(const PointGroup& g) const {
  if (none()) return false;
  for (const Condition& c : conditions_) {
    if (c.key == "xfer" || c.key == "engine" || c.key == "io_mode" || c.key == "durability") {
      const std::string v = c.key == "xfer"      ? g.xfer
                            : c.key == "engine"  ? g.engine
                            : c.key == "io_mode" ? g.io_mode
                                                 : g.durability();
      const bool eq = v == c.text;
      if (eq != (c.op == "=")) return false;
      continue;
    }
    const double v = c.key == "io_size" ? static_cast<double>(g.io_size)
                     : c.key == "qd"    ? g.qd
                     : c.key == "threads" ? g.threads
                                          : g.concurrency();
    const bool ok = c.op == "="    ? v == c.number
                    : c.op == "!=" ? v != c.number
                    : c.op == "<"  ? v < c.number
                    : c.op == "<=" ? v <= c.number
                    : c.op == ">"  ? v > c.number
                                   : v >= c.number;
    if (!ok) return false;
  }
  return true;
}

}  // namespace iowall::calib
