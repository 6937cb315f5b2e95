// The host's page cache for buffered I/O: which pages of which device are cached, kept
// as an LRU over fixed-size blocks (bounded by capacity; a block is evicted whole) with
// each block's pages marked in it, so a re-read hits memory, a cold read goes to storage,
// and a read of a few pages caches those pages, not their whole block. A page is 4 KiB,
// or block / 64 where blocks are larger than 256 KiB. Dirty data of buffered writes is
// bounded too: past the dirty limit a writer waits for writeback. A warm cache starts with every block
// resident (a file just written, or read before, as fio's and iowall measure's target
// files are unless their pages are dropped): a block is missed only once evicted.
#pragma once
#include <cstdint>
#include <list>
#include <unordered_map>
#include <unordered_set>

#include "sim/core/units.hpp"

namespace iowall {

class PageCache {
public:
  PageCache(Bytes capacity, Bytes block, bool warm = false)
      : capacity_blocks_(std::max<i64>(1, capacity / block)),
        block_(block),
        page_(std::max(Bytes(4096), Bytes((block.n + 63) / 64))),
        pages_per_block_(std::max<i64>(1, ceil_div(block, page_))),
        warm_(warm) {}
  // Looks up [offset, offset+size) of `device`: true when every page is cached (and marks
  // their blocks recently used).
  bool lookup(const void* device, Bytes offset, Bytes size);
  // True when every page of [offset, offset+size) is cached; counts nothing, changes nothing.
  bool resident(const void* device, Bytes offset, Bytes size) const;
  // Inserts the pages, evicting the least recently used blocks past capacity.
  void insert(const void* device, Bytes offset, Bytes size);
  std::uint64_t hits() const { return hits_; }
  std::uint64_t misses() const { return misses_; }

private:
  struct Key {
    const void* device;
    i64 block;
    bool operator==(const Key& o) const { return device == o.device && block == o.block; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return std::hash<const void*>()(k.device) ^ (static_cast<std::size_t>(k.block) * 0x9E3779B97F4A7C15ULL);
    }
  };
  struct Entry {
    std::list<Key>::iterator lru;
    std::uint64_t pages = 0;  // bit i: the block's page i is cached
  };
  // The pages of block `b` that [offset, offset+size) covers, as a mask.
  std::uint64_t pages_of(i64 b, Bytes offset, Bytes size) const;
  std::uint64_t full() const { return pages_per_block_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << pages_per_block_) - 1; }
  // Whether `need` pages of block k are cached (a warm block never evicted holds every page).
  bool has(const Key& k, std::uint64_t need) const;
  bool cached(const Key& k, std::uint64_t need);
  void touch(const Key& k, std::uint64_t add);
  template <class F>
  void each_block(Bytes offset, Bytes size, F&& f) const {
    const i64 first = offset / block_, last = (offset + size - Bytes(1)) / block_;
    for (i64 b = first; b <= last; ++b) f(b, pages_of(b, offset, size));
  }

  i64 capacity_blocks_;
  Bytes block_;
  Bytes page_;
  i64 pages_per_block_;
  bool warm_;
  std::unordered_set<Key, KeyHash> evicted_;  // warm: blocks pushed out, missed from then on
  std::list<Key> lru_;  // front: most recent
  std::unordered_map<Key, Entry, KeyHash> index_;
  std::uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace iowall
