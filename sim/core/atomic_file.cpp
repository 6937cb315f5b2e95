#include "sim/core/atomic_file.hpp"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"

namespace iowall {

namespace {

namespace fs = std::filesystem;

// The process's umask, read without changing it for longer than the two calls.
mode_t current_umask() {
  const mode_t m = ::umask(022);
  ::umask(m);
  return m;
}

// Writes all of `content` to `fd`; returns 0 or the errno of the failure.
int write_all(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

// The path that is replaced: a symbolic link's final target (the link itself stays).
std::string resolve_links(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st{};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(p.c_str(), buf, sizeof(buf) - 1);
    if (n < 0) return p;
    const std::string target(buf, static_cast<std::size_t>(n));
    const fs::path t(target);
    p = t.is_absolute() ? target : (fs::path(p).parent_path() / t).string();
  }
  return p;
}

std::string directory_of(const std::string& path) {
  const fs::path target(path);
  return target.has_parent_path() ? target.parent_path().string() : std::string(".");
}

// Standard output, a device, a FIFO or a socket: written in place, never replaced.
void write_through(const std::string& shown, const std::string& path, const std::string& content) {
  throw_if_interrupted();
  const int fd = path == "-" ? ::dup(STDOUT_FILENO) : ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw InputError(shown, "", fmt::format("cannot write: {}", std::strerror(errno)));
  const int err = write_all(fd, content);
  ::close(fd);
  if (err != 0) throw InputError(shown, "", fmt::format("cannot write: {}", std::strerror(err)));
}

}  // namespace

std::string output_path_problem(const std::string& path) {
  if (path.empty()) return "an empty path";
  if (path == "-") return "";
  const std::string real = resolve_links(path);
  const std::string problem = [&]() -> std::string {
    struct stat st{};
    if (::stat(real.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) return "it is a directory";
      if (::access(real.c_str(), W_OK) != 0) return "it is not writable";
      if (!S_ISREG(st.st_mode)) return "";
    }
    const std::string dir = directory_of(real);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return fmt::format("directory {} does not exist", dir);
    if (::access(dir.c_str(), W_OK | X_OK) != 0) return fmt::format("directory {} is not writable", dir);
    return "";
  }();
  return problem.empty() ? problem : fmt::format("cannot write {}: {}", path, problem);
}

void write_file_atomically(const std::string& path, const std::string& content) {
  if (path == "-") return write_through(path, path, content);
  const std::string real = resolve_links(path);
  struct stat existing{};
  const bool exists = ::stat(real.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode)) throw InputError(path, "", "cannot write: it is a directory");
  if (exists && !S_ISREG(existing.st_mode)) return write_through(path, real, content);

  const fs::path target(real);
  const std::string dir = directory_of(real);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError(path, "", fmt::format("cannot write: directory {} does not exist", dir));
  throw_if_interrupted();
  std::string tmpl = (fs::path(dir) / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd < 0) throw InputError(path, "", fmt::format("cannot write: {}", std::strerror(errno)));
  auto fail = [&](int err) {
    ::close(fd);
    ::unlink(tmpl.c_str());
    throw InputError(path, "", fmt::format("cannot write: {}", std::strerror(err)));
  };
  if (const int err = write_all(fd, content); err != 0) fail(err);
  // An existing file keeps its permission bits and owner; a new one is created as
  // open(2) with mode 0666 would create it.
  const mode_t mode = exists ? (existing.st_mode & 07777) : (0666 & ~current_umask());
  if (exists && (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid()))
    if (::fchown(fd, existing.st_uid, existing.st_gid) != 0) {
    }  // only root may; otherwise the writer owns the new file
  if (::fchmod(fd, mode) != 0) fail(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    throw InputError(path, "", fmt::format("cannot write: {}", std::strerror(err)));
  }
  // A signal that arrived while the content was computed or written: the file would be
  // complete, but the command as a whole was stopped, so nothing is left behind.
  if (stop_requested()) {
    ::unlink(tmpl.c_str());
    throw Interrupted(fmt::format("interrupted; {} not written", path));
  }
  if (::rename(tmpl.c_str(), real.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    throw InputError(path, "", fmt::format("cannot write: {}", std::strerror(err)));
  }
}

}  // namespace iowall
