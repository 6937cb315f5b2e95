// Host memory for I/O buffers: aligned to 4 KiB, as O_DIRECT needs for the buffer address,
// and from 64 KiB up, 2 MiB-aligned and offered to transparent huge pages.
//
// Why huge pages: an O_DIRECT request's buffer becomes one DMA segment per physically
// contiguous run of pages. With 4 KiB pages, faulted in one by one, a 1 MiB buffer is 190 to
// 256 runs, and the block layer splits a request at the device's segment limit (254 on a
// virtio disk): a 1 MiB read went out as 1016 KiB + 8 KiB in some runs and whole in
// others, depending on where the kernel happened to find the pages, and the extra small
// request cost about a third of the bandwidth (reports/calibration/cpu-machine/fio-crosscheck.md).
// A buffer inside one 2 MiB page is one segment, so the device sees the I/O size asked for.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <new>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

namespace iowall::measure {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;
inline constexpr std::size_t kHugePageFrom = std::size_t{64} << 10;

// huge: as above. small: 4 KiB-aligned, MADV_NOHUGEPAGE: the buffer a program gets from
// malloc or an anonymous mapping where transparent huge pages are not given, each page its
// own DMA segment unless the kernel happened to find neighbours (`iowall measure
// --buffer-pages small`).
enum class BufferPages { huge, small };

class AlignedBuffer {
public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(std::size_t size, std::size_t align = 4096, BufferPages pages = BufferPages::huge)
      : size_(size) {
    if (size == 0) return;
    std::size_t bytes = size;
    int advice = -1;
    if (pages == BufferPages::small) {
      bytes = (size + 4095) / 4096 * 4096;
      advice = MADV_NOHUGEPAGE;
    } else if (size >= kHugePageFrom) {
      align = kHugePage;
      bytes = (size + kHugePage - 1) / kHugePage * kHugePage;  // whole huge pages
      advice = MADV_HUGEPAGE;
    }
    if (::posix_memalign(&data_, align, bytes) != 0) throw std::bad_alloc();
    // Advice only: where transparent huge pages are off, MADV_HUGEPAGE fails and the buffer
    // has 4 KiB pages, as before.
    if (advice >= 0) ::madvise(data_, bytes, advice);
    std::memset(data_, 0, bytes);  // touch every page now, not during the timed loop
  }
  ~AlignedBuffer() { std::free(data_); }
  AlignedBuffer(AlignedBuffer&& o) noexcept : data_(o.data_), size_(o.size_) { o.data_ = nullptr; o.size_ = 0; }
  AlignedBuffer& operator=(AlignedBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  char* data() const { return static_cast<char*>(data_); }
  std::size_t size() const { return size_; }

private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

// The number after `field` ("AnonHugePages:", "THPeligible:") in /proc/self/smaps for the
// mapping that holds `p`, or -1 when smaps does not say.
inline long long smaps_field(const void* p, const std::string& field) {
  std::ifstream smaps("/proc/self/smaps");
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    const auto dash = line.find('-');
    const auto space = line.find(' ');
    if (dash != std::string::npos && space != std::string::npos && dash < space && line.find(':') > space) {
      // a mapping's header line: "lo-hi perms ..."
      const std::uintptr_t lo = std::stoull(line.substr(0, dash), nullptr, 16);
      const std::uintptr_t hi = std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
      inside = addr >= lo && addr < hi;
    } else if (inside && line.rfind(field, 0) == 0) {
      return std::stoll(line.substr(field.size()));  // "AnonHugePages:   4096 kB", "THPeligible:    1"
    }
  }
  return -1;
}

// Physically contiguous runs of 4 KiB pages in [p, p + n): the DMA segments an O_DIRECT
// request over those bytes becomes (before the block layer's segment size limit), or -1
// when the page frame numbers cannot be read (they read as 0 without CAP_SYS_ADMIN).
inline long long physical_runs(const void* p, std::size_t n) {
  const int fd = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  long long runs = 0;
  std::uint64_t prev = 0;
  const auto base = reinterpret_cast<std::uintptr_t>(p);
  for (std::size_t off = 0; off < n; off += 4096) {
    std::uint64_t e = 0;
    if (::pread(fd, &e, 8, static_cast<off_t>((base + off) / 4096 * 8)) != 8) return ::close(fd), -1;
    const std::uint64_t pfn = e & ((std::uint64_t{1} << 55) - 1);
    if (pfn == 0) return ::close(fd), -1;
    if (off == 0 || pfn != prev + 1) ++runs;
    prev = pfn;
  }
  ::close(fd);
  return runs;
}

// Bytes of the mapping that holds `p` that are backed by transparent huge pages, or 0 when
// it cannot be told.
inline std::size_t huge_page_bytes(const void* p) {
  const long long kib = smaps_field(p, "AnonHugePages:");
  return kib > 0 ? static_cast<std::size_t>(kib) * 1024 : 0;
}

}  // namespace iowall::measure
