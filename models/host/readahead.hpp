// Linux's on-demand readahead for one open file (mm/readahead.c, 6.10 and later; struct
// file_ra_state): which pages a buffered read() sends to the disk beyond the ones it asks
// for, and when. A read that misses starts a synchronous window (page_cache_sync_ra): on a
// sequential stream (the file's start, an oversized read, or the page after the last read)
// get_init_ra_size() of the request, with its last async_size pages marked by a PG_readahead
// flag on their first page; elsewhere only the request, unless pages just before it are
// cached (page_cache_prev_miss: a stream the cache remembers). A read that reaches a marked
// page starts the next window asynchronously (page_cache_async_ra): it begins where the last
// one ended, grows by get_next_ra_size() up to the maximum and is marked on its first page,
// so a sequential reader keeps one to two windows in flight ahead of it. The maximum is the
// file's ra_pages (read_ahead_kb; POSIX_FADV_SEQUENTIAL doubles it), or up to io_pages
// (max_sectors_kb) for a read larger than ra_pages. POSIX_FADV_RANDOM (FMODE_RANDOM) reads
// exactly the request, at most max(io_pages, ra_pages) per call in 2 MiB chunks
// (force_page_cache_ra), and marks nothing.
// Pages here are 4 KiB page indices of the file; the caller owns the page cache and asks
// this state what to read.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>

namespace iowall {

struct ReadaheadLimits {
  std::int64_t ra_pages = 32;    // the file's readahead maximum (bdi ra_pages, read_ahead_kb / 4 KiB)
  std::int64_t io_pages = 1024;  // the device's largest request in pages (max_sectors_kb / 4 KiB)
  bool random = false;           // FMODE_RANDOM: POSIX_FADV_RANDOM on the file
};

// Pages [start, start + count) to read; `mark`: the page that carries PG_readahead
// (-1: none).
struct ReadaheadWindow {
  std::int64_t start = 0, count = 0, mark = -1;
};

class FileReadahead {
public:
  // The page cache as the state machine sees it: the first page at or after `from`
  // (up to `from + max`) that is neither cached nor being read; the last such page at or
  // before `from` (down to `from - max`), or from - max - 1 when every page between is.
  using NextMiss = std::function<std::int64_t(std::int64_t from, std::int64_t max)>;
  using PrevMiss = std::function<std::int64_t(std::int64_t from, std::int64_t max)>;

  explicit FileReadahead(ReadaheadLimits limits) : limits_(limits) {}

  // page_cache_sync_ra: a read() needs page `index`, `req` pages remain to the end of the
  // read, and the page is neither cached nor being read. The pages to read now (from
  // `index`; a forced read may be shorter than `req`: the read comes back for the rest).
  ReadaheadWindow sync(std::int64_t index, std::int64_t req, const PrevMiss& prev_miss);
  // page_cache_async_ra: a read() reached marked page `index` (the flag is cleared) with
  // `req` pages to go. The next window, or none (readahead off, or no stream to follow).
  std::optional<ReadaheadWindow> async(std::int64_t index, std::int64_t req, const NextMiss& next_miss);
  const ReadaheadLimits& limits() const { return limits_; }
  // A read() ended at page `end` (exclusive): ra->prev_pos.
  void read_done(std::int64_t end) { prev_page_ = end - 1; }

  // get_init_ra_size(), get_next_ra_size() and ractl_max_pages(), as the kernel has them.
  static std::int64_t init_size(std::int64_t req, std::int64_t max);
  static std::int64_t next_size(std::int64_t cur, std::int64_t max);
  std::int64_t max_pages(std::int64_t req) const;
  // force_page_cache_ra's chunk: 2 MiB of 4 KiB pages.
  static constexpr std::int64_t kForcedChunk = 512;

private:
  ReadaheadWindow window() const { return {start_, size_, async_size_ > 0 ? start_ + size_ - async_size_ : -1}; }

  ReadaheadLimits limits_;
  std::int64_t start_ = 0, size_ = 0, async_size_ = 0;  // the current window (ra->start, size, async_size)
  int order_ = 0;                                         // ra->order: folio order, grows by 2 per async window
  std::int64_t prev_page_ = -1;                           // ra->prev_pos >> PAGE_SHIFT; -1: none yet
};

}  // namespace iowall
