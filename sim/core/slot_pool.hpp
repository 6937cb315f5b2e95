// A pool of records addressed by a 32-bit index, reused through a free list: how
// in-flight work (an I/O, a transfer) keeps its state while callbacks, which may
// capture only a few bytes, carry just the index.
#pragma once
#include <cstdint>
#include <vector>

namespace iowall {

template <typename T>
class SlotPool {
public:
  std::uint32_t acquire(T value) {
    ++live_;
    if (free_ != kNone) {
      const std::uint32_t i = free_;
      free_ = next_[i];
      items_[i] = std::move(value);
      return i;
    }
    items_.push_back(std::move(value));
    next_.push_back(kNone);
    return static_cast<std::uint32_t>(items_.size() - 1);
  }
  void release(std::uint32_t i) {
    --live_;
    next_[i] = free_;
    free_ = i;
  }
  T& operator[](std::uint32_t i) { return items_[i]; }
  const T& operator[](std::uint32_t i) const { return items_[i]; }
  std::size_t live() const { return live_; }

private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<T> items_;
  std::vector<std::uint32_t> next_;
  std::uint32_t free_ = kNone;
  std::size_t live_ = 0;
};

}  // namespace iowall
