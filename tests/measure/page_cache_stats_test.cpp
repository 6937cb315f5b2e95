// Reading the kernel's dirty-page counters and vm.dirty_* settings, from text and from a
// procfs laid out in a temporary folder; the sampler's peak.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "measure/page_cache_stats.hpp"
#include "measure_test_util.hpp"

using namespace iowall::measure;

namespace {

void write_text(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  const std::string tmp = path + ".tmp";
  std::ofstream(tmp) << text;
  std::rename(tmp.c_str(), path.c_str());  // whole, so a reader never sees half a file
}

std::string meminfo(int dirty_kib) {
  return "MemTotal:       16384000 kB\nMemFree:         1000000 kB\nMemAvailable:    8192000 kB\n"
         "Dirty:             " + std::to_string(dirty_kib) + " kB\nWriteback:            12 kB\n"
         "WritebackTmp:          0 kB\n";
}

const char* const kVmstat = "nr_free_pages 100\nnr_dirty 25\nnr_writeback 3\nnr_writeback_temp 0\n"
                            "nr_dirtied 123456\nnr_written 120000\n";

}  // namespace

TEST_CASE("dirty and writeback counters are read from /proc/meminfo and /proc/vmstat", "[measure]") {
  const DirtyCounters c = parse_dirty_counters(meminfo(100), kVmstat);
  CHECK(c.dirty_bytes == 100 * 1024);
  CHECK(c.writeback_bytes == 12 * 1024);  // not WritebackTmp
  CHECK(c.nr_dirty == 25);
  CHECK(c.nr_writeback == 3);  // not nr_writeback_temp
  CHECK(c.nr_dirtied == 123456);
  CHECK(c.nr_written == 120000);
  const DirtyCounters none = parse_dirty_counters("MemTotal: 1 kB\n", "nr_free_pages 1\n");
  CHECK_FALSE(none.dirty_bytes);
  CHECK_FALSE(none.nr_dirtied);
  CHECK(meminfo_bytes("Dirty:\n", "Dirty") == std::nullopt);
  CHECK(vmstat_value("nr_dirty x\n", "nr_dirty") == std::nullopt);
}

TEST_CASE("vm.dirty_* settings and memory are read once, null where missing", "[measure]") {
  testing::ScratchDir dir;
  const std::string proc = dir.path();
  write_text(proc + "/meminfo", meminfo(0));
  write_text(proc + "/sys/vm/dirty_ratio", "20\n");
  write_text(proc + "/sys/vm/dirty_background_ratio", "10\n");
  write_text(proc + "/sys/vm/dirty_bytes", "0\n");
  write_text(proc + "/sys/vm/dirty_expire_centisecs", "3000\n");
  const VmDirtySettings v = read_vm_dirty_settings(proc);
  CHECK(v.dirty_ratio == 20);
  CHECK(v.dirty_background_ratio == 10);
  CHECK(v.dirty_bytes == 0);
  CHECK_FALSE(v.dirty_background_bytes);  // absent here
  CHECK(v.dirty_expire_centisecs == 3000);
  CHECK_FALSE(v.dirty_writeback_centisecs);
  CHECK(v.mem_total_bytes == 16384000LL * 1024);
  CHECK(v.mem_available_bytes == 8192000LL * 1024);
}

TEST_CASE("the sampler keeps the highest dirty figure seen between before and after", "[measure]") {
  testing::ScratchDir dir;
  const std::string proc = dir.path();
  write_text(proc + "/vmstat", kVmstat);
  write_text(proc + "/meminfo", meminfo(100));
  DirtySampler sampler(std::chrono::milliseconds(5), proc);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  write_text(proc + "/meminfo", meminfo(900));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  write_text(proc + "/meminfo", meminfo(200));
  const PageCacheUsage u = sampler.stop();
  CHECK(u.before.dirty_bytes == 100 * 1024);
  CHECK(u.peak.dirty_bytes == 900 * 1024);
  CHECK(u.after.dirty_bytes == 200 * 1024);
  CHECK(u.samples >= 3);
  CHECK(u.sample_period_ms == 5);
}

TEST_CASE("this machine's counters read as numbers where the kernel has them", "[measure]") {
  const DirtyCounters c = read_dirty_counters();
  if (!c.dirty_bytes) {
    WARN("no /proc/meminfo Dirty here");
    return;
  }
  CHECK(*c.dirty_bytes >= 0);
  const VmDirtySettings v = read_vm_dirty_settings();
  if (v.mem_total_bytes && v.mem_available_bytes) CHECK(*v.mem_available_bytes <= *v.mem_total_bytes);
}
