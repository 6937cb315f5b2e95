// Linux's on-demand readahead state (models/host/readahead.hpp) against the window sizes
// mm/readahead.c gives: the initial window of a sequential read, the ramp of the async
// windows to the maximum and where each is marked, a read larger than read_ahead_kb
// reading up to max_sectors_kb, POSIX_FADV_RANDOM reading exactly the request, a random
// miss reading as is, and readahead off. Pages are 4 KiB.
#include <catch2/catch.hpp>

#include "models/host/readahead.hpp"

namespace {

using namespace iowall;

// Nothing cached: the first miss at or after `from` is `from`; before it, `from`.
std::int64_t next_none(std::int64_t from, std::int64_t) { return from; }
std::int64_t prev_none(std::int64_t from, std::int64_t) { return from; }

}  // namespace

TEST_CASE("window sizes are the kernel's get_init_ra_size and get_next_ra_size", "[readahead]") {
  // For a 128 KiB maximum (32 pages), the kernel's own comment: 1-2 pages -> 16 KiB,
  // 3-4 -> 32 KiB, 5-8 -> 64 KiB, more -> 128 KiB.
  CHECK(FileReadahead::init_size(1, 32) == 4);
  CHECK(FileReadahead::init_size(2, 32) == 4);    // 2 -> 2 x 2 (2 <= 32 / 4)... the kernel's table: 16 KiB
  CHECK(FileReadahead::init_size(3, 32) == 8);    // roundup 4, <= 8: x 2
  CHECK(FileReadahead::init_size(8, 32) == 16);   // 8 <= 8: x 2
  CHECK(FileReadahead::init_size(9, 32) == 32);   // 16 > 8: the maximum
  // Growth: x 4 below max / 16, x 2 up to max / 2, then the maximum.
  CHECK(FileReadahead::next_size(64, 2048) == 256);
  CHECK(FileReadahead::next_size(512, 2048) == 1024);
  CHECK(FileReadahead::next_size(1024, 2048) == 2048);
  CHECK(FileReadahead::next_size(2048, 2048) == 2048);
}

TEST_CASE("a sequential reader of 1 MiB read()s ramps up to the 8 MiB window, one to two windows ahead",
          "[readahead]") {
  // read_ahead_kb 8192 (2048 pages), max_sectors_kb 4096 (1024 pages): the GPU VM's queue.
  FileReadahead ra({2048, 1024, false});
  // read() #1 at page 0, 256 pages: init_size(256, 2048) = 512 (256 <= 2048 / 4: x 2), its
  // last 512 - 256 = 256 pages asynchronous: marked at page 256.
  const ReadaheadWindow w0 = ra.sync(0, 256, prev_none);
  CHECK(w0.start == 0);
  CHECK(w0.count == 512);
  CHECK(w0.mark == 256);
  ra.read_done(256);
  // read() #2 reaches the mark: the next window starts where this one ends, 2 x 512
  // (512 <= 1024), wholly asynchronous (marked on its first page).
  const auto w1 = ra.async(256, 256, next_none);
  REQUIRE(w1);
  CHECK(w1->start == 512);
  CHECK(w1->count == 1024);
  CHECK(w1->mark == 512);
  // read() #3 reaches page 512: then the maximum, 2048 pages (8 MiB), from 1536.
  const auto w2 = ra.async(512, 256, next_none);
  REQUIRE(w2);
  CHECK(w2->start == 1536);
  CHECK(w2->count == 2048);
  CHECK(w2->mark == 1536);
  // The reader is then 1024 pages (4 MiB) behind the window just started and reaches
  // its mark only after consuming the one before: one to two windows in flight.
  CHECK(w2->start - 512 == 1024);
}

TEST_CASE("a read larger than read_ahead_kb reads windows up to max_sectors_kb", "[readahead]") {
  // read_ahead_kb 128 KiB (32 pages), max_sectors_kb 4 MiB (1024 pages), a 16 MiB read():
  // ractl_max_pages = min(4096, 1024) = 1024; init_size(4096, 1024) = 1024, and since the
  // window is not larger than the read, half of it is asynchronous.
  FileReadahead ra({32, 1024, false});
  CHECK(ra.max_pages(4096) == 1024);
  CHECK(ra.max_pages(16) == 32);  // a small read keeps read_ahead_kb
  const ReadaheadWindow w = ra.sync(0, 4096, prev_none);
  CHECK(w.count == 1024);
  CHECK(w.mark == 512);
  // The same read reaches the mark with 3584 pages to go: the next 1024.
  const auto next = ra.async(512, 3584, next_none);
  REQUIRE(next);
  CHECK(next->start == 1024);
  CHECK(next->count == 1024);
}

TEST_CASE("POSIX_FADV_RANDOM reads the request as it is, readahead off reads one page", "[readahead]") {
  // force_page_cache_ra: at most max(io_pages, ra_pages) per call, no mark.
  FileReadahead random({2048, 1024, true});
  const ReadaheadWindow w = random.sync(4096, 1024, prev_none);
  CHECK(w.start == 4096);
  CHECK(w.count == 1024);
  CHECK(w.mark == -1);
  CHECK(random.sync(0, 4096, prev_none).count == 2048);  // capped at max(1024, 2048)
  FileReadahead off({0, 1024, false});
  CHECK(off.sync(0, 256, prev_none).count == 1);
  CHECK_FALSE(off.async(0, 256, next_none));
}

TEST_CASE("a random miss reads as is unless the page cache shows a stream before it", "[readahead]") {
  FileReadahead ra({32, 1024, false});
  // A 4 KiB read at page 1000 on a fresh file, nothing cached before it: one page, no mark.
  const ReadaheadWindow lone = ra.sync(1000, 1, prev_none);
  CHECK(lone.count == 1);
  CHECK(lone.mark == -1);
  // Pages 990-999 cached (the miss before is 989): contig 10 > 1, a window of
  // min(10 + 1, 32) = 11 pages from 1000, its last page marked.
  const ReadaheadWindow stream = ra.sync(1000, 1, [](std::int64_t, std::int64_t) { return std::int64_t{989}; });
  CHECK(stream.count == 11);
  CHECK(stream.mark == 1010);
  // Everything before cached from the file's start: the run counts double, up to the maximum.
  FileReadahead whole({32, 1024, false});
  CHECK(whole.sync(10, 1, [](std::int64_t, std::int64_t) { return std::int64_t{-1}; }).count == 21);
}

TEST_CASE("an async window's end is aligned to the folio order it grows to", "[readahead]") {
  // read_ahead_kb 8 MiB, 1 MiB reads: windows 512 (sync), then async 1024 from 512 (order
  // 2), 2048 from 1536 (4), 3584 (6), 5632 (8); at order 10 the window 7680 + 2048 = 9728
  // ends 512 pages past a 1024-page boundary: trimmed to 1536 pages.
  FileReadahead ra({2048, 1024, false});
  ra.sync(0, 256, prev_none);
  std::int64_t mark = 256;
  std::vector<std::int64_t> counts;
  for (int i = 0; i < 6; ++i) {
    const auto w = ra.async(mark, 256, next_none);
    REQUIRE(w);
    counts.push_back(w->count);
    mark = w->mark;
  }
  CHECK(counts == std::vector<std::int64_t>{1024, 2048, 2048, 2048, 1536, 1024});
}
