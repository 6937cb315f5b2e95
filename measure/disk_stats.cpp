#include "measure/disk_stats.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace iowall::measure {
namespace {

bool read_counters(const std::string& path, DiskCounters& c) {
  std::ifstream f(path);
  std::uint64_t in_flight = 0;
  // Fields 1-11 of Documentation/block/stat.rst; later kernels append discard and flush fields.
  return static_cast<bool>(f >> c.read_ios >> c.read_merges >> c.read_sectors >> c.read_ticks_ms >> c.write_ios >>
                           c.write_merges >> c.write_sectors >> c.write_ticks_ms >> in_flight >> c.io_ticks_ms >>
                           c.time_in_queue_ms);
}

// A queue attribute of a disk (queue/NAME) or of a partition's disk (../queue/NAME).
std::string queue_attribute(const std::string& dir, const std::string& name) {
  for (const char* rel : {"queue/", "../queue/"}) {
    std::ifstream f(dir + rel + name);
    std::string s;
    if (std::getline(f, s)) return s;
  }
  return "";
}

// The bracketed entry of queue/scheduler.
std::string scheduler_of(const std::string& dir) {
  const std::string s = queue_attribute(dir, "scheduler");
  const auto open = s.find('['), close = s.find(']');
  if (open != std::string::npos && close != std::string::npos && close > open) return s.substr(open + 1, close - open - 1);
  return s;  // a queue without a choice names its one scheduler ("none")
}

}  // namespace

DiskCounters DiskCounters::operator-(const DiskCounters& b) const {
  // Counters only grow; a device reset in between reads as zero rather than wrapping.
  auto d = [](std::uint64_t a, std::uint64_t x) { return a >= x ? a - x : 0; };
  return {d(read_ios, b.read_ios),         d(read_merges, b.read_merges),   d(read_sectors, b.read_sectors),
          d(read_ticks_ms, b.read_ticks_ms), d(write_ios, b.write_ios),       d(write_merges, b.write_merges),
          d(write_sectors, b.write_sectors), d(write_ticks_ms, b.write_ticks_ms), d(io_ticks_ms, b.io_ticks_ms),
          d(time_in_queue_ms, b.time_in_queue_ms)};
}

double DiskUsage::mean_read_request_bytes() const {
  return delta.read_ios ? static_cast<double>(delta.read_sectors) * 512.0 / static_cast<double>(delta.read_ios) : 0.0;
}

std::optional<DiskWatch> DiskWatch::of(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::nullopt;
  const dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
  DiskWatch w;
  w.dir_ = "/sys/dev/block/" + std::to_string(major(dev)) + ":" + std::to_string(minor(dev)) + "/";
  DiskCounters probe;
  if (!read_counters(w.dir_ + "stat", probe)) return std::nullopt;
  std::error_code ec;
  w.name_ = std::filesystem::canonical(w.dir_, ec).filename().string();
  if (ec || w.name_.empty()) w.name_ = std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
  w.scheduler_ = scheduler_of(w.dir_);
  try {
    w.max_request_kib_ = std::stoull(queue_attribute(w.dir_, "max_sectors_kb"));
  } catch (const std::exception&) {
    w.max_request_kib_ = 0;
  }
  return w;
}

DiskCounters DiskWatch::read() const {
  DiskCounters c;
  if (!read_counters(dir_ + "stat", c)) return {};
  return c;
}

DiskUsage DiskWatch::since(const DiskCounters& before, double interval_s) const {
  DiskUsage u;
  u.name = name_;
  u.scheduler = scheduler_;
  u.max_request_kib = max_request_kib_;
  u.delta = read() - before;
  u.interval_s = interval_s;
  if (interval_s > 0) u.util = std::min(1.0, static_cast<double>(u.delta.io_ticks_ms) / 1000.0 / interval_s);
  return u;
}

}  // namespace iowall::measure
