// Read-only access to a machine's /sys and /proc, or to a recorded copy of them
// (scripts/capture-sysfs.sh): files are named by their logical path ("/sys/bus/...",
// "/proc/meminfo") whichever tree is read, so what discovery records as a fact's source
// is the same for a live machine and its recording. Links are followed only while they
// stay inside the tree. Nothing is ever written.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iowall::discover {

class SysfsTree {
public:
  // `sys_dir` is laid out as /sys; `proc_dir` as /proc ("" when there is none).
  SysfsTree(std::filesystem::path sys_dir, std::filesystem::path proc_dir, bool recorded);

  // The text of a file (at most 64 KiB) with trailing white space removed; nullopt when it
  // does not exist or cannot be read (a sysfs attribute may refuse a read: a link's speed
  // while it is down).
  std::optional<std::string> read(std::string_view logical) const;
  // The names in a folder, sorted; empty when it does not exist.
  std::vector<std::string> list(std::string_view logical) const;
  bool exists(std::string_view logical) const;
  // The logical path a link (or a path through links) leads to, under /sys; nullopt when it
  // does not exist or leads out of the tree.
  std::optional<std::string> resolve(std::string_view logical) const;
  // Whether this is a recording rather than the running machine.
  bool recorded() const { return recorded_; }

private:
  std::optional<std::filesystem::path> physical(std::string_view logical) const;
  std::filesystem::path sys_, proc_;
  bool recorded_ = false;
};

}  // namespace iowall::discover
