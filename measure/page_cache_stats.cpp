#include "measure/page_cache_stats.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

namespace iowall::measure {
namespace {

std::string slurp_proc(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The whole number after `key` at the start of a line (key followed by `sep`), or null.
Counter field(std::string_view text, std::string_view key, char sep) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == sep) {
      std::string_view rest = line.substr(key.size() + 1);
      while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
      std::int64_t v = 0;
      const auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
      if (ec != std::errc() || p == rest.data()) return std::nullopt;
      return v;
    }
    pos = end + 1;
  }
  return std::nullopt;
}

Counter one_number(const std::string& path) {
  const std::string s = slurp_proc(path);
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return std::nullopt;
  return v;
}

void raise(Counter& a, const Counter& b) {
  if (b && (!a || *b > *a)) a = b;
}

}  // namespace

void DirtyCounters::raise_gauges(const DirtyCounters& o) {
  raise(dirty_bytes, o.dirty_bytes);
  raise(writeback_bytes, o.writeback_bytes);
  raise(nr_dirty, o.nr_dirty);
  raise(nr_writeback, o.nr_writeback);
}

Counter meminfo_bytes(std::string_view meminfo, std::string_view key) {
  const Counter kib = field(meminfo, key, ':');
  return kib ? Counter(*kib * 1024) : std::nullopt;  // the kernel's "kB" are KiB
}

Counter vmstat_value(std::string_view vmstat, std::string_view key) { return field(vmstat, key, ' '); }

DirtyCounters parse_dirty_counters(std::string_view meminfo, std::string_view vmstat) {
  DirtyCounters c;
  c.dirty_bytes = meminfo_bytes(meminfo, "Dirty");
  c.writeback_bytes = meminfo_bytes(meminfo, "Writeback");
  c.nr_dirty = vmstat_value(vmstat, "nr_dirty");
  c.nr_writeback = vmstat_value(vmstat, "nr_writeback");
  c.nr_dirtied = vmstat_value(vmstat, "nr_dirtied");
  c.nr_written = vmstat_value(vmstat, "nr_written");
  return c;
}

DirtyCounters read_dirty_counters(const std::string& proc) {
  return parse_dirty_counters(slurp_proc(proc + "/meminfo"), slurp_proc(proc + "/vmstat"));
}

VmDirtySettings read_vm_dirty_settings(const std::string& proc) {
  VmDirtySettings s;
  const std::string vm = proc + "/sys/vm/";
  s.dirty_ratio = one_number(vm + "dirty_ratio");
  s.dirty_background_ratio = one_number(vm + "dirty_background_ratio");
  s.dirty_bytes = one_number(vm + "dirty_bytes");
  s.dirty_background_bytes = one_number(vm + "dirty_background_bytes");
  s.dirty_expire_centisecs = one_number(vm + "dirty_expire_centisecs");
  s.dirty_writeback_centisecs = one_number(vm + "dirty_writeback_centisecs");
  const std::string meminfo = slurp_proc(proc + "/meminfo");
  s.mem_total_bytes = meminfo_bytes(meminfo, "MemTotal");
  s.mem_available_bytes = meminfo_bytes(meminfo, "MemAvailable");
  return s;
}

DirtySampler::DirtySampler(std::chrono::milliseconds period, std::string proc)
    : proc_(std::move(proc)), period_(period) {
  usage_.before = read_dirty_counters(proc_);
  usage_.peak = usage_.before;
  usage_.samples = 1;
  usage_.sample_period_ms = static_cast<int>(period.count());
  thread_ = std::thread([this] { loop(); });
}

DirtySampler::~DirtySampler() {
  if (thread_.joinable()) stop();
}

void DirtySampler::loop() {
  std::unique_lock lock(m_);
  while (!cv_.wait_for(lock, period_, [this] { return stopping_; })) {
    lock.unlock();
    const DirtyCounters c = read_dirty_counters(proc_);
    lock.lock();
    usage_.peak.raise_gauges(c);
    ++usage_.samples;
  }
}

PageCacheUsage DirtySampler::stop() {
  {
    std::lock_guard lock(m_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  usage_.after = read_dirty_counters(proc_);
  usage_.peak.raise_gauges(usage_.after);
  ++usage_.samples;
  return usage_;
}

}  // namespace iowall::measure
