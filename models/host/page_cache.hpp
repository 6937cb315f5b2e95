// The host's page cache for buffered I/O: which blocks of which device are cached
// (LRU over fixed-size blocks, bounded by capacity), so a re-read hits memory and a
// cold read goes to storage. Dirty data of buffered writes is bounded too: past the
// dirty limit a writer waits for writeback. A warm cache starts with every block
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
      : capacity_blocks_(std::max<i64>(1, capacity / block)), block_(block), warm_(warm) {}
  // Looks up [offset, offset+size) of `device`: true when every block is cached
  // (and marks them recently used).
  bool lookup(const void* device, Bytes offset, Bytes size);
  // True when every block of [offset, offset+size) is cached; counts nothing, changes nothing.
  bool resident(const void* device, Bytes offset, Bytes size) const;
  // Inserts the blocks, evicting the least recently used past capacity.
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
  bool cached(const Key& k);
  void touch(const Key& k);

  i64 capacity_blocks_;
  Bytes block_;
  bool warm_;
  std::unordered_set<Key, KeyHash> evicted_;  // warm: blocks pushed out, missed from then on
  std::list<Key> lru_;  // front: most recent
  std::unordered_map<Key, std::list<Key>::iterator, KeyHash> index_;
  std::uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace iowall
