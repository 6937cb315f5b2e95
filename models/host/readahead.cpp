// Linux's on-demand readahead (models/host/readahead.hpp): page_cache_sync_ra and
// page_cache_async_ra of mm/readahead.c, with the window sizes of get_init_ra_size and
// get_next_ra_size and the alignment of an async window's end to the folio order.
#include "models/host/readahead.hpp"

#include <algorithm>
#include <bit>

namespace iowall {

std::int64_t FileReadahead::init_size(std::int64_t req, std::int64_t max) {
  const auto pages = static_cast<std::uint64_t>(std::max<std::int64_t>(req, 1));
  const auto size = static_cast<std::int64_t>(std::bit_ceil(pages));  // roundup_pow_of_two
  if (size <= max / 32) return size * 4;
  if (size <= max / 4) return size * 2;
  return max;
}

std::int64_t FileReadahead::next_size(std::int64_t cur, std::int64_t max) {
  if (cur < max / 16) return 4 * cur;
  if (cur <= max / 2) return 2 * cur;
  return max;
}

std::int64_t FileReadahead::max_pages(std::int64_t req) const {
  // A read larger than the readahead window may read up to the device's request size.
  if (req > limits_.ra_pages && limits_.io_pages > limits_.ra_pages) return std::min(req, limits_.io_pages);
  return limits_.ra_pages;
}

ReadaheadWindow FileReadahead::sync(std::int64_t index, std::int64_t req, const PrevMiss& prev_miss) {
  bool forced = limits_.random;
  if (limits_.ra_pages <= 0) {  // readahead off: the one page the read needs, as forced readahead
    req = 1;
    forced = true;
  }
  if (forced) {  // "be dumb": the request as it is, at most max(io_pages, ra_pages) per call
    const std::int64_t n = std::min(req, std::max(limits_.io_pages, limits_.ra_pages));
    return {index, std::max<std::int64_t>(n, 1), -1};
  }
  const std::int64_t max = max_pages(req);
  // The start of the file, an oversized read, or a sequential miss (the page after the
  // last read, or the same page again for unaligned reads): a new window.
  const bool sequential = prev_page_ >= 0 && index >= prev_page_ && index - prev_page_ <= 1;
  if (index == 0 || req > max || sequential) {
    start_ = index;
    size_ = init_size(req, max);
    async_size_ = size_ > req ? size_ - req : size_ >> 1;
    order_ = 0;
    return window();
  }
  // Elsewhere: is there a stream the page cache remembers (cached pages just before)?
  const std::int64_t miss = prev_miss(index - 1, max);
  std::int64_t contig = index - miss - 1;
  if (contig <= req) return {index, req, -1};  // a standalone random read: as is, no state
  if (miss < 0) contig *= 2;                      // cached from the file's start: a long stream
  start_ = index;
  size_ = std::min(contig + req, max);
  async_size_ = 1;
  order_ = 0;
  return window();
}

std::optional<ReadaheadWindow> FileReadahead::async(std::int64_t index, std::int64_t req, const NextMiss& next_miss) {
  if (limits_.ra_pages <= 0) return std::nullopt;
  const std::int64_t max = max_pages(req);
  if (index == start_ + size_ - async_size_) {  // the expected mark: push the window forward
    start_ += size_;
    size_ = std::max(size_, next_size(size_, max));
  } else {  // a mark without valid state (interleaved reads): follow the cached run
    const std::int64_t start = next_miss(index + 1, max);
    if (start <= 0 || start - index > max) return std::nullopt;
    start_ = start;
    size_ = next_size(start - index + req, max);
  }
  order_ = std::min(order_ + 2, 62);  // the kernel stops at its largest folio order; this bound keeps shifts defined
  // The window's end is aligned to the folio order it reads with (at most max_pages'
  // lowest set bit).
  const int low_bit = std::countr_zero(static_cast<std::uint64_t>(std::max<std::int64_t>(max, 1)));
  const std::int64_t align = std::int64_t{1} << std::min(order_, low_bit);
  const std::int64_t end = start_ + size_, aligned_end = end / align * align;
  if (aligned_end > start_) size_ -= end - aligned_end;
  async_size_ = size_;
  return window();
}

}  // namespace iowall
