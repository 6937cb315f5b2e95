#include "models/host/page_cache.hpp"

namespace iowall {

bool PageCache::cached(const Key& k) {
  if (index_.count(k)) return true;
  if (!warm_ || evicted_.count(k)) return false;
  touch(k);  // resident from the start: it enters the LRU order at its first use
  return true;
}

bool PageCache::resident(const void* device, Bytes offset, Bytes size) const {
  const i64 first = offset / block_, last = (offset + size - Bytes(1)) / block_;
  for (i64 b = first; b <= last; ++b) {
    const Key k{device, b};
    if (!index_.count(k) && (!warm_ || evicted_.count(k))) return false;
  }
  return true;
}

bool PageCache::lookup(const void* device, Bytes offset, Bytes size) {
  const i64 first = offset / block_, last = (offset + size - Bytes(1)) / block_;
  for (i64 b = first; b <= last; ++b)
    if (!cached(Key{device, b})) {
      ++misses_;
      return false;
    }
  for (i64 b = first; b <= last; ++b) touch(Key{device, b});
  ++hits_;
  return true;
}

void PageCache::insert(const void* device, Bytes offset, Bytes size) {
  const i64 first = offset / block_, last = (offset + size - Bytes(1)) / block_;
  for (i64 b = first; b <= last; ++b) touch(Key{device, b});
}

void PageCache::touch(const Key& k) {
  auto it = index_.find(k);
  if (it != index_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  lru_.push_front(k);
  index_[k] = lru_.begin();
  evicted_.erase(k);
  if (static_cast<i64>(index_.size()) > capacity_blocks_) {
    if (warm_) evicted_.insert(lru_.back());
    index_.erase(lru_.back());
    lru_.pop_back();
  }
}

}  // namespace iowall
