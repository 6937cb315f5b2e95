#include "discover/nvidia_smi.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <regex>
#include <sstream>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "sim/core/text.hpp"

extern char** environ;

namespace iowall::discover {
namespace {

// "00000000:1B:00.0" -> "0000:1b:00.0" (sysfs writes a 4-digit domain in lower case).
std::string sysfs_bdf(const std::string& smi) {
  std::string s = smi;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const auto colon = s.find(':');
  if (colon != std::string::npos && colon > 4) s = s.substr(colon - 4);
  return s;
}

std::string strip_escapes(const std::string& line) {
  static const std::regex esc("\x1b\\[[0-9;]*m");
  return std::regex_replace(line, esc, "");
}

}  // namespace

NvidiaSmi parse_nvidia_smi(const std::string& q_text, const std::string& topo_text, const std::string& q_from,
                           const std::string& topo_from) {
  NvidiaSmi s;
  static const std::regex gpu_line(R"(^GPU ([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7])\s*$)");
  std::istringstream q(q_text);
  std::string line, current, section;
  while (std::getline(q, line)) {
    std::smatch m;
    if (std::regex_match(line, m, gpu_line)) {
      current = sysfs_bdf(m[1]);
      s.gpus.push_back(current);
      section.clear();
      continue;
    }
    if (current.empty()) continue;
    const auto colon = line.find(':');
    const std::string key(trim(colon == std::string::npos ? std::string_view(line) : std::string_view(line).substr(0, colon)));
    const std::string value(colon == std::string::npos ? std::string_view() : trim(std::string_view(line).substr(colon + 1)));
    if (colon == std::string::npos || value.empty()) {
      section = key;
      continue;
    }
    if (key == "Product Name") s.product[current] = value;
    if (key == "Total" && section == "FB Memory Usage") s.memory[current] = value;
  }
  if (!s.gpus.empty())
    s.sources.push_back(fmt::format("GPU product names and memory: nvidia-smi -q ({})", q_from));

  // topo -m: a header of device columns (GPU0 ... NICn), then one row per device.
  std::istringstream t(topo_text);
  std::vector<std::string> columns;
  static const std::regex device_token("^(GPU|NIC)[0-9]+$");
  static const std::regex nv("^NV([0-9]+)$");
  std::map<int, std::vector<std::string>> rows;
  while (std::getline(t, line)) {
    std::istringstream words(strip_escapes(line));
    std::vector<std::string> tok;
    for (std::string w; words >> w;) tok.push_back(w);
    if (tok.empty()) continue;
    if (columns.empty()) {
      if (tok[0] != "GPU0") continue;
      for (const std::string& w : tok) {
        if (!std::regex_match(w, device_token)) break;
        columns.push_back(w);
      }
      continue;
    }
    if (tok[0].rfind("GPU", 0) != 0 || !std::regex_match(tok[0], device_token)) {
      if (tok[0] == "Legend:") break;
      continue;
    }
    rows[std::atoi(tok[0].c_str() + 3)] = std::vector<std::string>(tok.begin() + 1, tok.end());
  }
  int n = 0;
  for (const std::string& c : columns)
    if (c.rfind("GPU", 0) == 0) ++n;
  if (n > 0 && !rows.empty()) {
    s.nvlinks.assign(static_cast<std::size_t>(n), std::vector<int>(static_cast<std::size_t>(n), 0));
    for (const auto& [i, cells] : rows) {
      if (i < 0 || i >= n) continue;
      for (int j = 0; j < n && j < static_cast<int>(cells.size()); ++j) {
        std::smatch m;
        if (std::regex_match(cells[static_cast<std::size_t>(j)], m, nv))
          s.nvlinks[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = std::atoi(m[1].str().c_str());
      }
    }
    s.sources.push_back(fmt::format("NVLink matrix: nvidia-smi topo -m ({})", topo_from));
  }
  return s;
}

std::optional<std::string> run_nvidia_smi(const std::vector<std::string>& args, int timeout_s) {
  // Find it on PATH first: a missing program is not an error, only no information.
  const char* path_env = std::getenv("PATH");
  std::string program;
  std::istringstream dirs(path_env ? path_env : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/nvidia-smi";
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      program = candidate;
      break;
    }
  }
  if (program.empty()) return std::nullopt;

  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> argv_text{program};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipefd[1]);
  if (rc != 0) {
    ::close(pipefd[0]);
    return std::nullopt;
  }
  std::string out;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  constexpr std::size_t kMaxOutput = 16u << 20;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{pipefd[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline is checked above
    if (ready < 0) break;
    char buf[65536];
    const ssize_t got = ::read(pipefd[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (out.size() < kMaxOutput) out.append(buf, static_cast<std::size_t>(got));
  }
  ::close(pipefd[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

}  // namespace iowall::discover
