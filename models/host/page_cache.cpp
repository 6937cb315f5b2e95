#include "models/host/page_cache.hpp"

namespace iowall {

bool PageCache::lookup(const void* device, Bytes offset, Bytes size) {
  const i64 first = offset.n / block_.n, last = (offset.n + size.n - 1) / block_.n;
  for (i64 b = first; b <= last; ++b)
    if (!index_.count(Key{device, b})) {
      ++misses_;
      return false;
    }
  for (i64 b = first; b <= last; ++b) lru_.splice(lru_.begin(), lru_, index_[Key{device, b}]);
  ++hits_;
  return true;
}

void PageCache::insert(const void* device, Bytes offset, Bytes size) {
  const i64 first = offset.n / block_.n, last = (offset.n + size.n - 1) / block_.n;
  for (i64 b = first; b <= last; ++b) {
    const Key k{device, b};
    auto it = index_.find(k);
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      continue;
    }
    lru_.push_front(k);
    index_[k] = lru_.begin();
    if (static_cast<i64>(index_.size()) > capacity_blocks_) {
      index_.erase(lru_.back());
      lru_.pop_back();
    }
  }
}

}  // namespace iowall
