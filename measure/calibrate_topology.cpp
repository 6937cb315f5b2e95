// A profile's fitted values written into a topology's devices and link and into a data
// path's parameters, each under the name and in the unit the model's registered
// parameter declares (measure/calibrate_topology.hpp).
#include "measure/calibrate_topology.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "measure/calibrate_writes.hpp"
#include "models/ssd/read_service.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/error.hpp"

namespace iowall::calib {

using nlohmann::json;

namespace {
constexpr std::pair<ReadForm, const char*> kReadForms[] = {{ReadForm::overlapped, read_services::overlapped},
                                                           {ReadForm::serial, read_services::serial},
                                                           {ReadForm::batched, read_services::batched}};

// The choices the nvme_ssd model declares for its read service, from the registry.
std::vector<std::string> declared_read_services() {
  const ModelEntry* drive = ModelRegistry::instance().find("device", "nvme_ssd");
  if (drive)
    for (const ParamInfo& p : drive->describe().params)
      if (p.name == "read_service") return p.choices;
  throw std::logic_error("the registry's nvme_ssd declares no read_service parameter");
}
// The parameter `name` as the registry's `model` of `domain` declares it: the name a
// fitted value is written under and the type that decides its unit. std::logic_error
// when the model no longer declares it.
ParamInfo declared(const char* domain, const std::string& model, const char* name) {
  const ModelEntry* e = ModelRegistry::instance().find(domain, model);
  if (e)
    for (const ParamInfo& p : e->describe().params)
      if (p.name == name) return p;
  throw std::logic_error(fmt::format("{} {} declares no parameter \"{}\" for `iowall calibrate` to set", domain,
                                     model, name));
}

// Writes the fitted `value` (seconds, bytes per second, per second, or a plain number)
// into `object` as the parameter `p`, in the unit its type takes.
void set_fitted(json& object, const ParamInfo& p, double value) {
  switch (p.type) {
    case ParamType::time: object[p.name] = time_text(value); return;
    case ParamType::bandwidth: object[p.name] = bandwidth_text(value); return;
    case ParamType::rate: object[p.name] = rate_text(value); return;
    case ParamType::number: object[p.name] = value; return;
    case ParamType::bytes: object[p.name] = to_string(Bytes(static_cast<i64>(std::llround(value)))); return;
    default: throw std::logic_error(fmt::format("calibration has no fitted value for the {} parameter \"{}\"",
                                                param_type_name(p.type), p.name));
  }
}
// The same for a name (a choice among the declared ones) or a value already in its unit.
void set_fitted(json& object, const ParamInfo& p, const std::string& value) {
  if (p.type == ParamType::choice && std::find(p.choices.begin(), p.choices.end(), value) == p.choices.end())
    throw std::logic_error(fmt::format("\"{}\" is not a choice of \"{}\"", value, p.name));
  object[p.name] = value;
}
void set_fitted(json& object, const char* domain, const std::string& model, const char* name, double value) {
  set_fitted(object, declared(domain, model, name), value);
}

// One "sources" line per write fit written into the drive: the values and the measurement
// files they came from.
void add_write_sources(json& t, const Profile& p, const std::string& ssd, const std::string& profile_file) {
  auto line = [&](const std::string& what, const Sources& from) {
    if (!t.contains("sources") || !t["sources"].is_array()) t["sources"] = json::array();
    t["sources"].push_back(fmt::format("{} {}: iowall calibrate (profile {}) from {}", ssd, what, profile_file,
                                       fmt::join(from.files, ", ")));
  };
  if (p.writes.drive)
    line(fmt::format("write_latency {}, write_bandwidth {}", time_text(p.writes.drive->latency_s),
                     bandwidth_text(p.writes.drive->bandwidth_Bps)),
         p.writes.drive->from);
  if (p.writes.flush) line(fmt::format("flush_cost {}", time_text(p.writes.flush->cost_s)), p.writes.flush->from);
}

}  // namespace

std::string read_service_name(ReadForm f) {
  static const std::vector<std::string> declared = declared_read_services();
  for (const auto& [form, name] : kReadForms)
    if (form == f) {
      if (std::find(declared.begin(), declared.end(), name) == declared.end())
        throw std::logic_error(fmt::format("nvme_ssd's read_service has no choice \"{}\"", name));
      return name;
    }
  throw std::logic_error("unknown read form");
}

ReadForm read_form(const std::string& name, const std::string& path, const std::string& pointer) {
  std::vector<std::string> known;
  for (const auto& [form, n] : kReadForms) {
    if (name == n) return form;
    known.push_back(n);
  }
  throw InputError(path, pointer, fmt::format("unknown read service \"{}\" (known: {})", name, fmt::join(known, ", ")));
}

std::string first_device(const json& topology, const std::string& model) {
  if (!topology.contains("devices") || !topology["devices"].is_array()) return "";
  for (const json& d : topology["devices"])
    if (d.value("model", "") == model) return d.value("id", "");
  return "";
}

namespace {

// The page cache's writeback as the write sweep measured it (cpu_cached's flusher rate and
// request, the vm.dirty_* settings the run recorded), into `e`: a scenario's cpu_cached
// entry, or a calibrated topology's own settings for the path.
void writeback_settings(const Profile& p, json& e) {
  if (!p.writes.writeback) return;
  const WritebackFit& wb = *p.writes.writeback;
  if (wb.flusher_identified) set_fitted(e, "path", "cpu_cached", "flusher_bandwidth", wb.flusher_Bps);
  if (wb.request_bytes > 0) set_fitted(e, "path", "cpu_cached", "writeback_request", static_cast<double>(wb.request_bytes));
  if (wb.vm) {
    const measure::MeasuredVm& v = *wb.vm;
    auto set = [&](const char* name, const std::optional<double>& value) {
      if (value) set_fitted(e, "path", "cpu_cached", name, *value);
    };
    auto num = [](const std::optional<std::uint64_t>& x) {
      return x ? std::optional<double>(static_cast<double>(*x)) : std::nullopt;
    };
    auto centi = [](const std::optional<std::uint64_t>& x) {
      return x ? std::optional<double>(static_cast<double>(*x) / 100) : std::nullopt;
    };
    set("dirty_ratio", v.dirty_ratio);
    set("dirty_background_ratio", v.dirty_background_ratio);
    set("dirty_bytes", num(v.dirty_bytes));
    set("dirty_background_bytes", num(v.dirty_background_bytes));
    set("dirty_expire", centi(v.dirty_expire_centisecs));
    set("dirty_writeback_interval", centi(v.dirty_writeback_centisecs));
    set("dirtyable_memory", num(v.mem_available_bytes));
  }
}

}  // namespace

json apply_profile(const json& base, const Profile& p, const std::string& base_file, const std::string& profile_file) {
  json t = base;
  if (first_device(t, "nvme_ssd").empty()) throw InputError(base_file, "/devices", "the topology has no nvme_ssd to calibrate");
  bool ssd_done = false, cpu_done = false, gpu_done = false;
  std::string ssd_id;
  for (json& d : t["devices"]) {
    const std::string model = d.value("model", "");
    if (model == "nvme_ssd" && !ssd_done && p.storage) {
      ssd_id = d.value("id", "");
      set_fitted(d, "device", model, "read_latency", p.storage->latency_s);
      set_fitted(d, "device", model, "read_bandwidth", p.storage->bandwidth_Bps);
      set_fitted(d, "device", model, "max_iops", p.storage->max_iops);
      set_fitted(d, declared("device", model, "read_service"), read_service_name(p.storage->read));
      set_fitted(d, "device", model, "latency_sigma", p.latency_sigma);
      // The largest request the runs' block queue took (max_sectors_kb), where recorded.
      if (p.storage->mdts_bytes != StorageParams{}.mdts_bytes)
        set_fitted(d, "device", model, "mdts", p.storage->mdts_bytes);
      if (p.writes.drive) {
        set_fitted(d, "device", model, "write_latency", p.writes.drive->latency_s);
        set_fitted(d, "device", model, "write_bandwidth", p.writes.drive->bandwidth_Bps);
        if (p.writes.drive->serial) set_fitted(d, declared("device", model, "write_service"), std::string("serial"));
      }
      if (p.writes.flush) set_fitted(d, "device", model, "flush_cost", p.writes.flush->cost_s);
      // The fit's standard error beside each value it identified ("3.18 GB/s +- 6%"): a
      // run plans at the value, --uncertainty draws it.
      for (const auto& [name, se] : p.relative_se)
        if (d.contains(name) && d[name].is_string()) d[name] = d[name].get<std::string>() + spread_text(se);
      ssd_done = true;
    } else if (model == "virtio_blk" && p.storage && p.storage->copy_cache_bytes > 0) {
      // The reads' slowdown beyond the buffers the host's cache keeps is the virtual
      // disk's copy into guest memory: its device thread pays it.
      set_fitted(d, "device", model, "copy_cache", p.storage->copy_cache_bytes);
      set_fitted(d, "device", model, "cold_copy_bandwidth", p.storage->cold_copy_Bps);
    } else if (model == "cpu_socket" && !cpu_done && p.memcpy && p.memcpy->bandwidth_identified) {
      set_fitted(d, "device", model, "memcpy_per_core", p.memcpy->bandwidth_Bps);
      cpu_done = true;
    } else if (model == "gpu" && !gpu_done && p.h2d && p.h2d->bandwidth_identified) {
      set_fitted(d, "device", model, "copy_engine_bandwidth", p.h2d->bandwidth_Bps);
      gpu_done = true;
    }
  }
  // The fit's read bandwidth is the rate at which the device delivers one request's data
  // into host memory, and a lone request waits for its last byte: its time is
  // latency + size / bandwidth (`storage_throughput`). The nvme_ssd's data path streams
  // into the DMA (cut-through), so it caps the rate without delaying a lone request; the
  // request's tail then arrives at the speed of the drive's link. The link to the
  // calibrated drive therefore carries the fitted bandwidth: a lone request waits for it,
  // as in the fit, and concurrent requests share it. For the virtio disks measured here
  // the "link" is the hypervisor copying the data into guest memory, part of what was fitted.
  // With writes fitted too, the write data would cross that link before the drive's write
  // path times it again: where the read service does not need the link to time a lone
  // read (batched), the link is left as the base topology has it (write_link_Bps).
  const bool link_for_reads = !p.writes.drive || write_link_Bps(p) > 0;
  bool link_done = false;
  if (ssd_done && link_for_reads && t.contains("links") && t["links"].is_array()) {
    const std::string port_prefix = ssd_id + ".";
    for (json& l : t["links"]) {
      const bool joins = (l.value("a", "").rfind(port_prefix, 0) == 0) || (l.value("b", "").rfind(port_prefix, 0) == 0);
      if (!joins) continue;
      std::string latency = "20 ns";
      for (const auto& [k, v] : l.items())
        if (k != "a" && k != "b" && v.is_object() && v.contains("latency") && v["latency"].is_string())
          latency = v["latency"].get<std::string>();
      json joined = {{"a", l.value("a", "")}, {"b", l.value("b", "")}};
      json fabric = json::object();
      set_fitted(fabric, "link", "fabric", "bandwidth", p.storage->bandwidth_Bps);
      set_fitted(fabric, declared("link", "fabric", "latency"), latency);
      joined["fabric"] = fabric;
      l = std::move(joined);
      link_done = true;
      break;
    }
  }
  if (ssd_done) add_write_sources(t, p, ssd_id, profile_file);
  // The machine's writeback goes with it: a plan or scenario on the calibrated topology
  // writes through this page cache unless its own cpu_cached entry says otherwise.
  json writeback = t.contains("paths") && t["paths"].contains("cpu_cached") ? t["paths"]["cpu_cached"] : json::object();
  writeback_settings(p, writeback);
  if (!writeback.empty()) t["paths"]["cpu_cached"] = writeback;
  t["name"] = base.value("name", "machine") + "-calibrated";
  t["description"] = fmt::format("{} Parameters of the first nvme_ssd{}{}{} fitted by `iowall calibrate` "
                                 "(profile: {}; base topology: {}).",
                                 base.value("description", ""),
                                 link_done ? " (its link carries the fitted read bandwidth: a lone request waits for its data)" : "",
                                 cpu_done ? ", the cpu_socket's memcpy" : "",
                                 gpu_done ? ", the GPU's copy engines" : "", profile_file, base_file);
  if (ssd_done && p.writes.drive && !link_done)
    t["description"] = t["description"].get<std::string>() +
                       " The drive's link is the base topology's: its batched read service times every read by "
                       "itself, and its write path times the writes.";
  return t;
}

json path_entry(const Profile& p, const std::string& path, int qd, double io_size) {
  json e = {{"name", path}};
  if (p.cpu && (path == "cpu_only" || path == "cpu_gpu")) {
    // The measured CPU time per I/O, half spent submitting and half completing.
    const double half = std::max(0.0, p.cpu->at(qd, io_size)) / 2;
    set_fitted(e, "path", path, "submit_cost", half);
    set_fitted(e, "path", path, "complete_cost", half);
  }
  // A buffered read's fixed cost per call (system call, page-cache lookup) is the memcpy
  // fit's intercept; its copy runs at the cpu_socket's fitted memcpy_per_core.
  if (path == "cpu_cached" && p.memcpy) set_fitted(e, "path", path, "syscall_cost", std::max(0.0, p.memcpy->fixed_s));
  if ((path == "cpu_gpu" || path == "compat") && p.h2d)
    set_fitted(e, "path", path, "copy_launch_cost", std::max(0.0, p.h2d->fixed_s));
  if (path == "compat") {
    // cuFile's compatibility mode does per chunk what cpu_gpu does per I/O (a read system
    // call, a copy launch) plus its own work; the cufile_compat fit is that extra time per
    // I/O against cpu_gpu at QD1, a fixed part and a part per byte.
    const double chunk = std::min(io_size, 1024.0 * 1024);  // the model's 1 MiB bounce slab
    double cost = p.cpu ? std::max(0.0, p.cpu->at(qd, chunk)) : 0;
    if (p.cufile) {
      double extra = p.cufile->fixed_s;
      if (p.cufile->bandwidth_identified && p.cufile->bandwidth_Bps > 0) extra += chunk / p.cufile->bandwidth_Bps;
      cost += std::max(0.0, extra);
    }
    set_fitted(e, "path", path, "chunk_cost", cost);
  }
  return e;
}


json write_path_entry(const Profile& p, const std::string& path, int qd, double io_size, const std::string& engine) {
  json e = path_entry(p, path, qd, io_size);
  if (path != "cpu_cached") return e;
  // A buffered write's time beyond its copy at the cpu_socket's memcpy rate (the read fit's,
  // where identified) is the write() call's own: page allocation, dirtying, the file system.
  // Through io_uring, with the io-wq fit: the worker's serial part, and the handoff beside it.
  if (p.writes.buffered) {
    const SizeLine& w = p.writes.buffered->line;
    double cost = w.fixed_s;
    if (engine == "io_uring" && p.writes.buffered->io_wq_serial_s) {
      cost = *p.writes.buffered->io_wq_serial_s;
      set_fitted(e, declared("path", path, "buffered_writes"), std::string("io_wq"));
      set_fitted(e, "path", path, "io_wq_handoff", std::max(0.0, w.fixed_s - cost));
    }
    if (w.bandwidth_identified && p.memcpy && p.memcpy->bandwidth_identified)
      cost += io_size / w.bandwidth_Bps - io_size / p.memcpy->bandwidth_Bps;
    set_fitted(e, "path", path, "syscall_cost", std::max(0.0, cost));
    // The fitted time per write holds the page cache's work per page too.
    set_fitted(e, "path", path, "write_page_cost", 0.0);
  }
  writeback_settings(p, e);
  return e;
}

}  // namespace iowall::calib
