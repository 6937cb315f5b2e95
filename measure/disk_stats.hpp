// The block device under a measurement, as the kernel counts it (/sys/dev/block/M:m/stat):
// the requests the device saw, how many I/Os the block layer merged into others, and how
// long the device was busy. fio prints the same as "Disk stats"; it tells whether the
// device saw the I/O size and queue depth asked for (a scheduler may merge sequential
// requests that wait in it, a small max_sectors_kb splits large ones).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace iowall::measure {

struct DiskCounters {
  std::uint64_t read_ios = 0, read_merges = 0, read_sectors = 0, read_ticks_ms = 0;
  std::uint64_t write_ios = 0, write_merges = 0, write_sectors = 0, write_ticks_ms = 0;
  std::uint64_t io_ticks_ms = 0, time_in_queue_ms = 0;
  DiskCounters operator-(const DiskCounters& before) const;
};

// One device's counters over an interval, with what names it.
struct DiskUsage {
  std::string name;       // "vda", "nvme0n1p2"
  std::string scheduler;  // the queue's I/O scheduler ("none", "mq-deadline"), empty if unknown
  std::uint64_t max_request_kib = 0;  // queue/max_sectors_kb: larger I/Os are split; 0 if unknown
  DiskCounters delta;
  double interval_s = 0;  // the wall time the counters cover
  double util = 0;        // share of the interval the device had I/O in flight (io_ticks)
  double mean_read_request_bytes() const;
};

// The device that holds the open file or is the open block device `fd`, or nullopt where
// the kernel keeps no statistics for it (tmpfs, overlay without a block device, NFS).
class DiskWatch {
public:
  static std::optional<DiskWatch> of(int fd);
  DiskCounters read() const;  // zeros if the statistics went away
  DiskUsage since(const DiskCounters& before, double interval_s) const;

private:
  std::string dir_;  // /sys/dev/block/M:m/
  std::string name_, scheduler_;
  std::uint64_t max_request_kib_ = 0;
};

}  // namespace iowall::measure
