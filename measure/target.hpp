// The thing `iowall measure` reads or writes, and the rules that keep it from writing
// anything it was not told to write:
//   - a path that does not exist: created with -s bytes of random data, removed at the
//     end (unless --keep); it is ours, so writing to it is allowed;
//   - an existing regular file: read-only unless --allow-write; never truncated or grown;
//   - a block device: read-only unless --destroy-data-on names the same device, and
//     never written while anything on it (or on a partition of it) is mounted or in use;
//   - anything else (a directory, a character device, a FIFO) is refused.
#pragma once
#include <cstdint>
#include <string>
#include <sys/types.h>

#include "measure/options.hpp"

namespace iowall::measure {

enum class TargetKind { new_file, existing_file, block_device };

struct Target {
  std::string path;
  TargetKind kind = TargetKind::new_file;
  std::int64_t capacity = 0;  // bytes in the existing file or device; 0 for a new file
  dev_t rdev = 0;             // block devices
  Bytes size;                 // bytes the measurement covers (-s, or derived from capacity)
};

std::string_view name(TargetKind k);

// Classifies the target and applies every safety rule and size check. Opens nothing
// for writing (a block device is opened read-only to learn its size).
Target inspect_target(const MeasureOptions& o);

// Creates and fills a new file (random data, then fsync and dropped from the page
// cache so that reads reach the storage), and removes it on destruction unless
// `keep`. For existing files and devices it does nothing.
class PreparedTarget {
public:
  PreparedTarget(const MeasureOptions& o, const Target& t);
  ~PreparedTarget();
  PreparedTarget(const PreparedTarget&) = delete;
  PreparedTarget& operator=(const PreparedTarget&) = delete;

  // Opens the target for this measurement's mode; O_DIRECT when `direct`, O_DSYNC when `dsync`.
  int open(bool direct, bool dsync = false) const;
  bool created() const { return created_; }
  const Target& target() const { return target_; }

private:
  void fill(int fd) const;  // random content over the new file, made durable
  const MeasureOptions& opts_;
  Target target_;
  bool created_ = false;
};

}  // namespace iowall::measure
