// The kernel's dirty-page accounting, which decides how long buffered writes take to become
// durable: system-wide gauges of dirty pages and pages under writeback (/proc/meminfo Dirty,
// Writeback; /proc/vmstat nr_dirty, nr_writeback) and the running counts of pages dirtied
// and written back (nr_dirtied, nr_written), read before and after each repeat and sampled
// during it for the peak; and the vm.dirty_* thresholds that start background writeback and
// throttle writers (/proc/sys/vm, read only). Fields a kernel does not provide stay null.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace iowall::measure {

using Counter = std::optional<std::int64_t>;

struct DirtyCounters {
  Counter dirty_bytes, writeback_bytes;      // /proc/meminfo Dirty, Writeback (kB there)
  Counter nr_dirty, nr_writeback;            // /proc/vmstat, pages, now
  Counter nr_dirtied, nr_written;            // /proc/vmstat, pages since boot
  // Raises the gauges (dirty, writeback) to `o`'s where higher; the running counts are left.
  void raise_gauges(const DirtyCounters& o);
};

struct VmDirtySettings {
  Counter dirty_ratio, dirty_background_ratio;            // percent of available memory
  Counter dirty_bytes, dirty_background_bytes;            // bytes; 0 when the ratio applies
  Counter dirty_expire_centisecs, dirty_writeback_centisecs;
  Counter mem_total_bytes, mem_available_bytes;           // /proc/meminfo MemTotal, MemAvailable
};

// Before, after, and the highest gauges seen (including before and after).
struct PageCacheUsage {
  DirtyCounters before, after, peak;
  int samples = 0;          // reads taken, before and after included
  int sample_period_ms = 0;
};

// A "Key:   123 kB" line's value of /proc/meminfo, in bytes; null when absent.
Counter meminfo_bytes(std::string_view meminfo, std::string_view key);
// A "key 123" line's value of /proc/vmstat; null when absent.
Counter vmstat_value(std::string_view vmstat, std::string_view key);
DirtyCounters parse_dirty_counters(std::string_view meminfo, std::string_view vmstat);

// `proc` is the procfs root ("/proc"; tests give a folder of their own).
DirtyCounters read_dirty_counters(const std::string& proc = "/proc");
VmDirtySettings read_vm_dirty_settings(const std::string& proc = "/proc");

// Samples the counters every `period` on its own thread from construction until stop().
class DirtySampler {
public:
  explicit DirtySampler(std::chrono::milliseconds period = std::chrono::milliseconds(100),
                        std::string proc = "/proc");
  ~DirtySampler();
  DirtySampler(const DirtySampler&) = delete;
  DirtySampler& operator=(const DirtySampler&) = delete;
  // Stops sampling, reads the counters once more and returns the whole picture.
  PageCacheUsage stop();

private:
  void loop();
  std::string proc_;
  std::chrono::milliseconds period_;
  PageCacheUsage usage_;
  std::mutex m_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace iowall::measure
