// A FIFO queue in one growing ring buffer: unlike std::deque it never frees and
// reallocates blocks as it fills and drains, so a queue that keeps the same depth
// allocates nothing in steady state.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace iowall {

template <typename T>
class RingQueue {
public:
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  T& front() { return items_[head_]; }
  const T& front() const { return items_[head_]; }
  T& back() { return items_[(head_ + count_ - 1) & (items_.size() - 1)]; }
  // The i-th item from the front.
  T& operator[](std::size_t i) { return items_[(head_ + i) & (items_.size() - 1)]; }
  const T& operator[](std::size_t i) const { return items_[(head_ + i) & (items_.size() - 1)]; }
  void push_back(const T& item) {
    if (count_ == items_.size()) grow();
    items_[(head_ + count_) & (items_.size() - 1)] = item;
    ++count_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (items_.size() - 1);
    --count_;
  }
  void pop_back() { --count_; }

private:
  void grow() {  // to the next power of two, oldest first
    std::vector<T> bigger(items_.empty() ? 8 : items_.size() * 2);
    for (std::size_t i = 0; i < count_; ++i) bigger[i] = std::move(items_[(head_ + i) & (items_.size() - 1)]);
    items_.swap(bigger);
    head_ = 0;
  }
  std::vector<T> items_;
  std::size_t head_ = 0, count_ = 0;
};

}  // namespace iowall
