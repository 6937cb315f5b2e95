#include "sim/core/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/interrupt.hpp"

namespace iowall {

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError(path, "", fmt::format("cannot write: directory {} does not exist", dir.string()));
  throw_if_interrupted();
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) throw InputError(path, "", fmt::format("cannot write: {}", std::strerror(errno)));
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmpl.c_str());
      throw InputError(path, "", fmt::format("cannot write: {}", std::strerror(err)));
    }
    done += static_cast<std::size_t>(n);
  }
  ::fchmod(fd, 0644);
  ::close(fd);
  // A signal that arrived while the content was computed or written: the file would be
  // complete, but the command as a whole was stopped, so nothing is left behind.
  if (stop_requested()) {
    ::unlink(tmpl.c_str());
    throw Interrupted(fmt::format("interrupted; {} not written", path));
  }
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    throw InputError(path, "", fmt::format("cannot write: {}", std::strerror(err)));
  }
}

}  // namespace iowall
