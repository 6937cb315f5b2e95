// The page cache's read side for buffered reads: which pages of a store are cached or
// being read, each reading thread's file readahead (models/host/readahead.hpp) with the
// pages it marked (PG_readahead) and not yet reached, and the reads waiting for a request.
// A read asks what to do at its next byte, as filemap_read does: a marked page starts the
// next window before anything waits; a page neither cached nor being read starts a
// synchronous window; a page being read is waited for; cached pages are copied up to the
// next mark, the next request in flight, the next page not cached, or the read's end. A
// window's pages not yet present become requests of at most the readahead's request size
// (a forced read: 2 MiB pieces), never past the store's end; the data path issues them and
// reports each one done.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "models/host/page_cache.hpp"
#include "models/host/readahead.hpp"
#include "sim/core/block_storage.hpp"

namespace iowall {

class CachedReads {
public:
  static constexpr Bytes kPage = Bytes(4096);  // the kernel's page: readahead counts in them
  using Id = std::uint32_t;                   // a read in flight, the data path's
  using Issue = std::function<void(Bytes offset, Bytes size)>;

  // One open file: its readahead state and the pages it marked.
  struct Stream {
    FileReadahead ra;
    std::set<i64> marks;
    Bytes file_end;  // readahead stops here (0: at the store's end)
    // A mark among the pages of [offset, end).
    bool marked(Bytes offset, Bytes end) const;
  };
  // What a read does next: wait (it is registered with the request holding its byte) or
  // copy up to `limit`.
  struct Step {
    bool wait = false;
    Bytes limit;
  };

  explicit CachedReads(PageCache& cache) : cache_(cache) {}

  // The file `thread` reads on `storage`, ending at `file_end` (0: the store's end), made on
  // its first read.
  Stream& stream(const BlockStorage& storage, int thread, const ReadaheadLimits& limits, Bytes file_end = Bytes(0));
  // Read `id` of [cur, end) on `storage` through `s`: readahead first (requests through
  // `issue`), then its next step.
  Step next(Id id, const BlockStorage& storage, Stream& s, Bytes cur, Bytes end, const Issue& issue);
  // A request of `storage` from `offset` is done: its pages are cached; the reads that
  // waited for it, to take their next step.
  std::vector<Id> done(const BlockStorage* storage, Bytes offset);

  // A range brought in whole, outside any readahead stream (a mapped loader's tensor view):
  // how many of the pages of [offset, end) are neither cached nor being read (what the
  // reader allocates before they go out), then those pages sent in requests of at most
  // `request_pages`; nothing is marked and no file's readahead state moves.
  i64 missing_pages(const BlockStorage& storage, Bytes offset, Bytes end) const;
  void fill(const BlockStorage& storage, Bytes offset, Bytes end, i64 request_pages, const Issue& issue);
  // Read `id` of [cur, end) that sends nothing itself: waits for the request holding `cur`,
  // or passes the cached pages up to the next request in flight or the end (a page neither
  // cached nor being read, past the store's end, ends it too).
  Step wait(Id id, const BlockStorage& storage, Bytes cur, Bytes end);

private:
  struct PieceKey {
    const BlockStorage* storage;
    Bytes start;
    bool operator<(const PieceKey& o) const { return storage != o.storage ? storage < o.storage : start < o.start; }
  };
  struct Piece {
    Bytes end;
    std::vector<Id> waiters;
  };
  // Whether page `page` of the store is cached or being read.
  bool present(const BlockStorage* storage, i64 page) const;
  i64 next_miss(const BlockStorage* storage, i64 from, i64 max) const;
  i64 prev_miss(const BlockStorage* storage, i64 from, i64 max) const;
  void read_window(const BlockStorage& storage, Stream& s, const ReadaheadWindow& w, const Issue& issue);
  // Pages [start, end) of the store neither cached nor being read, as requests of at most
  // `request` pages; the one holding `mark` (if any) gets it in `marks`.
  void issue_missing(const BlockStorage& storage, i64 start, i64 end, i64 request, i64 mark, std::set<i64>* marks,
                     const Issue& issue);
  // The waiting half of next(): wait for the request holding `cur`, or pass cached pages up
  // to the next mark in `marks` (none when null), request in flight, uncached page or `end`.
  Step wait_or_pass(Id id, const BlockStorage* store, const std::set<i64>* marks, Bytes cur, Bytes end);
  const Piece* piece_at(const BlockStorage* storage, Bytes offset) const;
  Piece* piece_at(const BlockStorage* storage, Bytes offset) {
    return const_cast<Piece*>(static_cast<const CachedReads*>(this)->piece_at(storage, offset));
  }

  PageCache& cache_;
  std::map<std::pair<const BlockStorage*, int>, Stream> streams_;     // by store and reading thread
  std::map<PieceKey, Piece> reading_;                                // requests in flight, by store and start
};

}  // namespace iowall
