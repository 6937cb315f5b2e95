// Host memory of the kinds a checkpoint's device-to-host copy lands in:
//   pinned          cudaHostAlloc: page-locked, so the copy engine DMAs into it directly;
//   pageable        malloc'd and touched before timing (a buffer a framework reuses): the
//                   driver copies through its own pinned staging buffer;
//   pageable_fresh  a new anonymous mapping, never touched: the copy also pays the page
//                   faults and the kernel's zeroing of every page, as a framework pays them
//                   when it copies each tensor into newly allocated memory (torch's .cpu()).
// Pageable memory may be advised MADV_HUGEPAGE or MADV_NOHUGEPAGE (transparent huge pages:
// one fault and one zeroing per 2 MiB instead of per 4 KiB); without advice the system's
// setting decides. A fresh mapping is placed on a 2 MiB boundary so that huge pages can
// back all of it.
#pragma once
#include <cstddef>
#include <string>

#include "measure/cuda_runtime.hpp"
#include "measure/options.hpp"

namespace iowall::measure {

class HostBuffer {
public:
  // `cuda` is needed for pinned memory only. Throws RunError when the memory cannot be had.
  HostBuffer(HostMemory kind, ThpAdvice thp, std::size_t bytes, const CudaRuntime* cuda);
  ~HostBuffer();
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  char* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  HostMemory kind() const { return kind_; }
  // Whether madvise accepted the advice (false also when none was asked for).
  bool advice_applied() const { return advised_; }
  // Bytes of the buffer's mapping that transparent huge pages back now (smaps), 0 if unknown.
  std::size_t huge_page_bytes() const;

private:
  HostMemory kind_;
  std::size_t bytes_;
  const CudaRuntime* cuda_ = nullptr;
  char* data_ = nullptr;
  void* malloced_ = nullptr;  // pageable
  bool advised_ = false;
};

// The system's transparent huge page mode (the bracketed word of
// /sys/kernel/mm/transparent_hugepage/enabled: "always", "madvise", "never"), or "".
std::string thp_enabled_mode(const std::string& sys = "/sys");

}  // namespace iowall::measure
