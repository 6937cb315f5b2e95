// Host memory aligned to 4 KiB, as O_DIRECT needs for the buffer address.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

namespace iowall::measure {

class AlignedBuffer {
public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(std::size_t size, std::size_t align = 4096) : size_(size) {
    if (size == 0) return;
    if (::posix_memalign(&data_, align, size) != 0) throw std::bad_alloc();
    std::memset(data_, 0, size);  // touch every page now, not during the timed loop
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

}  // namespace iowall::measure
