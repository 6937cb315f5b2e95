#include "measure/page_residency.hpp"

#include <algorithm>
#include <vector>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace iowall::measure {

std::optional<double> page_cache_resident(int fd, std::int64_t size) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  size = std::min<std::int64_t>(size, st.st_size);
  if (size <= 0) return std::nullopt;
  const std::int64_t page = ::sysconf(_SC_PAGESIZE);
  constexpr std::int64_t kWindow = std::int64_t{1} << 30;  // bounds the address space and the vector
  std::vector<unsigned char> vec;
  std::int64_t resident = 0;
  for (std::int64_t off = 0; off < size; off += kWindow) {
    const auto len = static_cast<std::size_t>(std::min(kWindow, size - off));
    void* map = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, off);
    if (map == MAP_FAILED) return std::nullopt;
    vec.assign((len + static_cast<std::size_t>(page) - 1) / static_cast<std::size_t>(page), 0);
    const int rc = ::mincore(map, len, vec.data());
    ::munmap(map, len);
    if (rc != 0) return std::nullopt;
    for (unsigned char v : vec) resident += v & 1;
  }
  return static_cast<double>(resident) / static_cast<double>((size + page - 1) / page);
}

}  // namespace iowall::measure
