#include "measure/host_memory.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

#include "measure/aligned_buffer.hpp"
#include "sim/core/error.hpp"

namespace iowall::measure {
namespace {

int advice_flag(ThpAdvice a) { return a == ThpAdvice::huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE; }

std::uintptr_t round_down_to(std::uintptr_t v, std::uintptr_t a) { return v / a * a; }
std::uintptr_t round_up_to(std::uintptr_t v, std::uintptr_t a) { return (v + a - 1) / a * a; }

}  // namespace

HostBuffer::HostBuffer(HostMemory kind, ThpAdvice thp, std::size_t bytes, const CudaRuntime* cuda)
    : kind_(kind), bytes_(bytes) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  switch (kind) {
    case HostMemory::pinned: {
      void* p = nullptr;
      cuda->check(cuda->HostAlloc(&p, bytes, 0), "cudaHostAlloc");
      cuda_ = cuda;
      data_ = static_cast<char*>(p);
      break;
    }
    case HostMemory::pageable: {
      malloced_ = std::malloc(bytes);
      if (!malloced_) throw RunError(fmt::format("malloc of {} bytes failed", bytes));
      data_ = static_cast<char*>(malloced_);
      if (thp != ThpAdvice::none) {
        const std::uintptr_t lo = round_down_to(reinterpret_cast<std::uintptr_t>(data_), page);
        const std::uintptr_t hi = round_up_to(reinterpret_cast<std::uintptr_t>(data_) + bytes, page);
        advised_ = ::madvise(reinterpret_cast<void*>(lo), hi - lo, advice_flag(thp)) == 0;
      }
      std::memset(data_, 0x5a, bytes);  // every page faulted in before any timing
      break;
    }
    case HostMemory::pageable_fresh: {
      // Over-map by one huge page and trim, so the buffer starts on a 2 MiB boundary.
      const std::size_t span = bytes + kHugePage;
      void* m = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m == MAP_FAILED) throw RunError(fmt::format("mmap of {} bytes failed: {}", span, std::strerror(errno)));
      const auto base = reinterpret_cast<std::uintptr_t>(m);
      const std::uintptr_t start = round_up_to(base, kHugePage);
      const std::uintptr_t end = round_up_to(start + bytes, page);
      if (start > base) ::munmap(m, start - base);
      if (base + span > end) ::munmap(reinterpret_cast<void*>(end), base + span - end);
      data_ = reinterpret_cast<char*>(start);
      if (thp != ThpAdvice::none) advised_ = ::madvise(data_, end - start, advice_flag(thp)) == 0;
      break;
    }
  }
}

HostBuffer::~HostBuffer() {
  switch (kind_) {
    case HostMemory::pinned: cuda_->FreeHost(data_); break;
    case HostMemory::pageable: std::free(malloced_); break;
    case HostMemory::pageable_fresh: {
      const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
      ::munmap(data_, (bytes_ + page - 1) / page * page);
      break;
    }
  }
}

std::size_t HostBuffer::huge_page_bytes() const {
  // Pinned memory is the driver's mapping, of its own page size: reported as 0 by smaps.
  return measure::huge_page_bytes(data_);
}

std::string thp_enabled_mode(const std::string& sys) {
  std::ifstream in(sys + "/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(in, line)) return {};
  const auto a = line.find('['), b = line.find(']');
  return a != std::string::npos && b != std::string::npos && b > a ? line.substr(a + 1, b - a - 1) : std::string();
}

}  // namespace iowall::measure
