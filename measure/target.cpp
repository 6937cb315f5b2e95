#include "measure/target.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "measure/aligned_buffer.hpp"
#include "sim/core/interrupt.hpp"
#include "measure/mounts.hpp"
#include "sim/core/error.hpp"
#include "sim/core/rng.hpp"

namespace iowall::measure {
namespace {

[[noreturn]] void bad_target(std::string_view option, std::string message) {
  throw InputError(kWhere, std::string(option), std::move(message));
}

std::int64_t block_device_size(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) bad_target("-f", fmt::format("cannot open block device {} to read its size: {}", path, std::strerror(errno)));
  std::uint64_t bytes = 0;
  const int rc = ::ioctl(fd, BLKGETSIZE64, &bytes);
  const int e = errno;
  ::close(fd);
  if (rc != 0) bad_target("-f", fmt::format("cannot read the size of {}: {}", path, std::strerror(e)));
  return static_cast<std::int64_t>(bytes);
}

// The size the measurement covers: -s, or the existing capacity rounded down to whole I/Os.
Bytes covered_size(const MeasureOptions& o, const Target& t) {
  if (t.kind == TargetKind::new_file) return *o.size;
  if (o.size) {
    if (o.size->n > t.capacity)
      bad_target("-s", fmt::format("\"{}\" is more than the {} bytes of {}; iowall never grows an existing {}",
                            size_text(*o.size), t.capacity, t.path,
                            t.kind == TargetKind::block_device ? "device" : "file"));
    return *o.size;
  }
  const std::int64_t per = o.io_size.n * o.threads;
  const std::int64_t n = t.capacity / o.io_size.n * o.io_size.n;
  if (n < per)
    bad_target("-f", fmt::format("{} holds {} bytes, less than one I/O of \"{}\" for each of the {} threads", t.path,
                          t.capacity, size_text(o.io_size), o.threads));
  return Bytes(n);
}

}  // namespace

std::string_view name(TargetKind k) {
  switch (k) {
    case TargetKind::new_file: return "new_file";
    case TargetKind::existing_file: return "existing_file";
    case TargetKind::block_device: return "block_device";
  }
  return "?";
}

Target inspect_target(const MeasureOptions& o) {
  Target t;
  t.path = o.file;
  const bool writes = o.mode.writes();
  struct stat st {};
  if (::stat(o.file.c_str(), &st) != 0) {
    if (errno != ENOENT) bad_target("-f", fmt::format("cannot inspect {}: {}", o.file, std::strerror(errno)));
    if (!o.destroy_data_on.empty())
      bad_target("--destroy-data-on", fmt::format("{} does not exist; --destroy-data-on is for block devices", o.file));
    if (!o.size)
      bad_target("-s", fmt::format("{} does not exist and no -s was given to create it with", o.file));
    const std::filesystem::path parent = std::filesystem::absolute(o.file).parent_path();
    struct stat pst {};
    if (::stat(parent.c_str(), &pst) != 0 || !S_ISDIR(pst.st_mode))
      bad_target("-f", fmt::format("cannot create {}: its directory {} does not exist", o.file, parent.string()));
    t.kind = TargetKind::new_file;
  } else if (S_ISDIR(st.st_mode)) {
    bad_target("-f", fmt::format("{} is a directory; name a file (new or existing) or a block device", o.file));
  } else if (S_ISREG(st.st_mode)) {
    t.kind = TargetKind::existing_file;
    t.capacity = st.st_size;
    if (!o.destroy_data_on.empty())
      bad_target("--destroy-data-on", fmt::format("{} is a regular file; --destroy-data-on is for block devices "
                                           "(use --allow-write to write to an existing file)",
                                           o.file));
    if (writes && !o.allow_write)
      bad_target("--allow-write", fmt::format("{} exists and -I {} would overwrite its data; pass --allow-write "
                                       "to permit that, or name a path that does not exist",
                                       o.file, o.mode_text));
  } else if (S_ISBLK(st.st_mode)) {
    t.kind = TargetKind::block_device;
    t.rdev = st.st_rdev;
    if (writes) {
      if (o.destroy_data_on.empty())
        bad_target("--destroy-data-on", fmt::format("-I {} would overwrite block device {}; pass --destroy-data-on {} "
                                             "if its data may be destroyed",
                                             o.mode_text, o.file, o.file));
      struct stat dst {};
      if (::stat(o.destroy_data_on.c_str(), &dst) != 0 || !S_ISBLK(dst.st_mode) || dst.st_rdev != st.st_rdev)
        bad_target("--destroy-data-on", fmt::format("\"{}\" is not the block device given with -f ({})",
                                             o.destroy_data_on, o.file));
      // Checked before anything is opened for writing.
      const std::string busy = device_in_use(st.st_rdev);
      if (!busy.empty())
        bad_target("--destroy-data-on", fmt::format("refusing to write to {}: {}", o.file, busy));
    } else if (!o.destroy_data_on.empty()) {
      bad_target("--destroy-data-on", "given for a read-only mode; it is only needed to write to a block device");
    }
    t.capacity = block_device_size(o.file);
  } else {
    bad_target("-f", fmt::format("{} is not a regular file or a block device", o.file));
  }
  t.size = covered_size(o, t);
  if (uses_odirect(o.xfer) && t.size.n % kAlign != 0)
    bad_target("-s", fmt::format("{} bytes is not a multiple of 4 KiB, which O_DIRECT requires", t.size.n));
  if (t.size.n % o.io_size.n != 0)
    bad_target("-s", fmt::format("\"{}\" is not a multiple of the I/O size \"{}\"", size_text(t.size), size_text(o.io_size)));
  return t;
}

PreparedTarget::PreparedTarget(const MeasureOptions& o, const Target& t) : opts_(o), target_(t) {
  if (t.kind != TargetKind::new_file) return;
  // O_EXCL: if something appeared at the path since it was inspected, it is not ours.
  const int fd = ::open(t.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw RunError(fmt::format("cannot create {}: {}", t.path, std::strerror(errno)));
  created_ = true;
  try {
    fill(fd);
  } catch (const Interrupted&) {
    // A constructor that throws runs no destructor: what it created goes now.
    ::close(fd);
    ::unlink(t.path.c_str());
    created_ = false;
    throw Interrupted(fmt::format("interrupted while filling {}; removed it", t.path));
  } catch (...) {
    ::close(fd);
    ::unlink(t.path.c_str());
    created_ = false;
    throw;
  }
  // The fill went through the page cache; drop it so the first reads are cold.
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

void PreparedTarget::fill(int fd) const {
  const Target& t = target_;
  // Random content, so compressing or deduplicating storage cannot shortcut the reads.
  constexpr std::size_t kChunk = 1 << 20;
  AlignedBuffer buf(kChunk);
  Rng rng(opts_.seed, "measure.fill");
  std::int64_t done = 0;
  while (done < t.size.n) {
    throw_if_interrupted();
    const std::size_t n = static_cast<std::size_t>(std::min<std::int64_t>(kChunk, t.size.n - done));
    auto* words = reinterpret_cast<std::uint64_t*>(buf.data());
    for (std::size_t i = 0; i < (n + 7) / 8; ++i) words[i] = rng.next();
    const ssize_t w = ::pwrite(fd, buf.data(), n, done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw RunError(fmt::format("cannot fill {}: {}", t.path, std::strerror(w < 0 ? errno : ENOSPC)));
    done += w;
  }
  if (::fsync(fd) != 0) throw RunError(fmt::format("cannot fill {} (fsync): {}", t.path, std::strerror(errno)));
}

PreparedTarget::~PreparedTarget() {
  if (created_ && !opts_.keep) ::unlink(target_.path.c_str());
}

int PreparedTarget::open(bool direct, bool dsync) const {
  const bool reads = opts_.mode.reads(), writes = opts_.mode.writes();
  int flags = O_CLOEXEC | (reads && writes ? O_RDWR : writes ? O_WRONLY : O_RDONLY);
  if (direct) flags |= O_DIRECT;
  if (dsync) flags |= O_DSYNC;
  if (writes && target_.kind == TargetKind::block_device) {
    // Checked again right before opening; O_EXCL makes the kernel refuse a device that
    // a file system has claimed since.
    const std::string busy = device_in_use(target_.rdev);
    if (!busy.empty()) throw InputError(kWhere, "--destroy-data-on", fmt::format("refusing to write to {}: {}", target_.path, busy));
    flags |= O_EXCL;
  }
  const int fd = ::open(target_.path.c_str(), flags);
  if (fd < 0) {
    const int e = errno;
    if (direct && e == EINVAL)
      throw InputError(kWhere, "-x", fmt::format("{} does not support O_DIRECT (the file system refused it); "
                                                 "use -x cpu_cached for buffered I/O", target_.path));
    throw RunError(fmt::format("cannot open {}: {}", target_.path, std::strerror(e)));
  }
  return fd;
}

}  // namespace iowall::measure
