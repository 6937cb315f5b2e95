#include "models/host/page_cache.hpp"

namespace iowall {

std::uint64_t PageCache::pages_of(i64 b, Bytes offset, Bytes size) const {
  const Bytes begin = Bytes(b * block_.n), end = begin + block_;
  const Bytes lo = std::max(offset, begin), hi = std::min(offset + size, end);
  if (hi <= lo) return 0;
  const i64 first = (lo - begin) / page_, last = ((hi - begin) - Bytes(1)) / page_;
  const i64 n = last - first + 1;
  const std::uint64_t run = n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  return (run << first) & full();
}

bool PageCache::has(const Key& k, std::uint64_t need) const {
  if (const auto it = index_.find(k); it != index_.end()) return (it->second.pages & need) == need;
  return warm_ && !evicted_.count(k);
}

bool PageCache::cached(const Key& k, std::uint64_t need) {
  if (const auto it = index_.find(k); it != index_.end()) return (it->second.pages & need) == need;
  if (!warm_ || evicted_.count(k)) return false;
  touch(k, full());  // resident from the start: it enters the LRU order at its first use
  return true;
}

bool PageCache::resident(const void* device, Bytes offset, Bytes size) const {
  bool all = true;
  each_block(offset, size, [&](i64 b, std::uint64_t need) { all = all && has(Key{device, b}, need); });
  return all;
}

bool PageCache::lookup(const void* device, Bytes offset, Bytes size) {
  bool all = true;
  each_block(offset, size, [&](i64 b, std::uint64_t need) { all = all && cached(Key{device, b}, need); });
  if (!all) {
    ++misses_;
    return false;
  }
  each_block(offset, size, [&](i64 b, std::uint64_t) { touch(Key{device, b}, 0); });
  ++hits_;
  return true;
}

void PageCache::insert(const void* device, Bytes offset, Bytes size) {
  each_block(offset, size, [&](i64 b, std::uint64_t pages) { touch(Key{device, b}, pages); });
}

void PageCache::touch(const Key& k, std::uint64_t add) {
  auto it = index_.find(k);
  if (it != index_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    it->second.pages |= add;
    return;
  }
  lru_.push_front(k);
  // A warm block never evicted holds every page; otherwise what was added.
  const bool whole = warm_ && !evicted_.count(k);
  index_[k] = Entry{lru_.begin(), whole ? full() : add};
  evicted_.erase(k);
  if (static_cast<i64>(index_.size()) > capacity_blocks_) {
    if (warm_) evicted_.insert(lru_.back());
    index_.erase(lru_.back());
    lru_.pop_back();
  }
}

}  // namespace iowall
