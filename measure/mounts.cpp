#include "measure/mounts.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

namespace iowall::measure {
namespace {

std::string sys_block_dir(dev_t d) { return fmt::format("/sys/dev/block/{}:{}", major(d), minor(d)); }

bool parse_dev(const std::string& text, dev_t& out) {
  unsigned ma = 0, mi = 0;
  if (std::sscanf(text.c_str(), "%u:%u", &ma, &mi) != 2) return false;
  out = makedev(ma, mi);
  return true;
}

bool contains(const std::vector<dev_t>& set, dev_t d) { return std::find(set.begin(), set.end(), d) != set.end(); }

// /proc/self/mounts escapes blanks in paths as octal (\040).
std::string unescape(const std::string& s) {
  std::string r;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      const std::string oct = s.substr(i + 1, 3);
      if (oct.size() == 3 && std::all_of(oct.begin(), oct.end(), [](char c) { return c >= '0' && c <= '7'; })) {
        r += static_cast<char>(std::stoi(oct, nullptr, 8));
        i += 3;
        continue;
      }
    }
    r += s[i];
  }
  return r;
}

std::string name_of(dev_t d) {
  std::error_code ec;
  const auto target = std::filesystem::read_symlink(sys_block_dir(d), ec);
  return ec ? fmt::format("{}:{}", major(d), minor(d)) : target.filename().string();
}

}  // namespace

std::vector<dev_t> device_and_partitions(dev_t dev) {
  std::vector<dev_t> set{dev};
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(sys_block_dir(dev), ec)) {
    std::error_code e2;
    if (!entry.is_directory(e2) || !std::filesystem::exists(entry.path() / "partition", e2)) continue;
    std::ifstream in(entry.path() / "dev");
    std::string text;
    dev_t part{};
    if (in >> text && parse_dev(text, part)) set.push_back(part);
  }
  return set;
}

std::string device_in_use(dev_t dev) {
  const std::vector<dev_t> set = device_and_partitions(dev);

  // Mount sources that are device nodes.
  {
    std::ifstream in("/proc/self/mounts");
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string source, point;
      if (!(ls >> source >> point)) continue;
      source = unescape(source);
      struct stat st {};
      if (source.starts_with("/") && ::stat(source.c_str(), &st) == 0 && S_ISBLK(st.st_mode) &&
          contains(set, st.st_rdev))
        return fmt::format("{} is mounted at {}", source, unescape(point));
    }
  }
  // The device number of each mounted file system, which catches mounts whose source
  // path is not visible here (another mount namespace's /dev, "overlay", and so on).
  {
    std::ifstream in("/proc/self/mountinfo");
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string id, parent, majmin, root, point;
      dev_t d{};
      if (ls >> id >> parent >> majmin >> root >> point && parse_dev(majmin, d) && contains(set, d))
        return fmt::format("{} holds the file system mounted at {}", name_of(d), unescape(point));
    }
  }
  {
    std::ifstream in("/proc/swaps");
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string source;
      struct stat st {};
      if (ls >> source && ::stat(unescape(source).c_str(), &st) == 0 && S_ISBLK(st.st_mode) &&
          contains(set, st.st_rdev))
        return fmt::format("{} is in use as swap", source);
    }
  }
  for (dev_t d : set) {
    std::error_code ec;
    for (const auto& h : std::filesystem::directory_iterator(sys_block_dir(d) + "/holders", ec))
      return fmt::format("{} is held by {} (device mapper, RAID or similar)", name_of(d),
                         h.path().filename().string());
  }
  return {};
}

}  // namespace iowall::measure
