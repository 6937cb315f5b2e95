#include "discover/sysfs_tree.hpp"

#include <algorithm>
#include <fstream>
#include <system_error>

namespace iowall::discover {

namespace fs = std::filesystem;

SysfsTree::SysfsTree(fs::path sys_dir, fs::path proc_dir, bool recorded)
    : sys_(std::move(sys_dir)), proc_(std::move(proc_dir)), recorded_(recorded) {
  std::error_code ec;
  const fs::path canonical = fs::canonical(sys_, ec);
  if (!ec) sys_ = canonical;
}

std::optional<fs::path> SysfsTree::physical(std::string_view logical) const {
  auto under = [&](std::string_view prefix, const fs::path& root) -> std::optional<fs::path> {
    if (root.empty()) return std::nullopt;
    if (logical == prefix) return root;
    if (logical.size() > prefix.size() && logical.substr(0, prefix.size()) == prefix && logical[prefix.size()] == '/')
      return root / std::string(logical.substr(prefix.size() + 1));
    return std::nullopt;
  };
  if (auto p = under("/sys", sys_)) return p;
  return under("/proc", proc_);
}

std::optional<std::string> SysfsTree::read(std::string_view logical) const {
  const auto p = physical(logical);
  if (!p) return std::nullopt;
  std::error_code ec;
  if (!fs::is_regular_file(*p, ec)) return std::nullopt;
  std::ifstream in(*p, std::ios::binary);
  if (!in) return std::nullopt;
  constexpr std::size_t kMax = 64 * 1024;
  std::string text(kMax, '\0');
  in.read(text.data(), static_cast<std::streamsize>(kMax));
  if (in.bad()) return std::nullopt;
  text.resize(static_cast<std::size_t>(in.gcount()));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.pop_back();
  return text;
}

std::vector<std::string> SysfsTree::list(std::string_view logical) const {
  std::vector<std::string> out;
  const auto p = physical(logical);
  if (!p) return out;
  std::error_code ec;
  for (fs::directory_iterator it(*p, ec), end; !ec && it != end; it.increment(ec))
    out.push_back(it->path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

bool SysfsTree::exists(std::string_view logical) const {
  const auto p = physical(logical);
  std::error_code ec;
  return p && fs::exists(*p, ec);
}

std::optional<std::string> SysfsTree::resolve(std::string_view logical) const {
  const auto p = physical(logical);
  if (!p) return std::nullopt;
  std::error_code ec;
  const fs::path real = fs::canonical(*p, ec);
  if (ec) return std::nullopt;
  const std::string root = sys_.string(), r = real.string();
  if (r == root) return std::string("/sys");
  if (r.size() <= root.size() || r.compare(0, root.size(), root) != 0 || r[root.size()] != '/') return std::nullopt;
  return "/sys" + r.substr(root.size());
}

}  // namespace iowall::discover
