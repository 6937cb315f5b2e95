// The page cache's read side (models/host/cached_reads.hpp) against a mock store: which
// requests a sequential reader's readahead sends, when a read waits and how far it copies,
// and that nothing is read twice or past the store's end. The window sizes are the
// kernel's (tests/host/readahead_test.cpp derives them): read_ahead_kb 8 MiB (2048 pages),
// max_sectors_kb 4 MiB (1024 pages), 1 MiB read()s.
#include <catch2/catch.hpp>

#include <vector>

#include "models/host/cached_reads.hpp"
#include "sim/core/sim_context.hpp"
#include "tests/support/fake_storage.hpp"

namespace {

using namespace iowall;
constexpr i64 MiB = 1 << 20;

struct Reader {
  PageCache cache{Bytes(64 * 1024 * MiB), Bytes(128 * 1024)};
  CachedReads reads{cache};
  std::vector<std::pair<i64, i64>> sent;  // (offset, size) of each request, in MiB
  CachedReads::Issue issue = [this](Bytes offset, Bytes size) { sent.emplace_back(offset.n, size.n); };
};

}  // namespace

TEST_CASE("a sequential reader's readahead: requests, waits and copies", "[readahead][cached_reads]") {
  SimContext ctx{1};
  testing::FakeStore store(ctx, "disk0");  // 1 GiB
  Reader r;
  CachedReads::Stream& s = r.reads.stream(store, 0, {2048, 1024, false});
  // read() #1, [0, 1 MiB): a miss: the synchronous window of 512 pages (2 MiB) as one
  // request, marked at 1 MiB; the read waits for it.
  CachedReads::Step step = r.reads.next(7, store, s, Bytes(0), Bytes(MiB), r.issue);
  CHECK(step.wait);
  REQUIRE(r.sent == std::vector<std::pair<i64, i64>>{{0, 2 * MiB}});
  CHECK(r.reads.done(&store, Bytes(0)) == std::vector<CachedReads::Id>{7});
  // Now cached: it copies to its end.
  step = r.reads.next(7, store, s, Bytes(0), Bytes(MiB), r.issue);
  CHECK_FALSE(step.wait);
  CHECK(step.limit == Bytes(MiB));
  s.ra.read_done(256);
  // read() #2, [1, 2) MiB, starts on the mark: the next window, 1024 pages from 2 MiB in one
  // 4 MiB request, marked on its first page; its own pages are cached, so it copies, up to
  // its end (the new mark is where it ends).
  CHECK(s.marked(Bytes(MiB), Bytes(2 * MiB)));
  step = r.reads.next(8, store, s, Bytes(MiB), Bytes(2 * MiB), r.issue);
  CHECK_FALSE(step.wait);
  CHECK(step.limit == Bytes(2 * MiB));
  REQUIRE(r.sent.size() == 2);
  CHECK(r.sent[1] == std::pair<i64, i64>{2 * MiB, 4 * MiB});
  s.ra.read_done(512);
  // read() #3 at 2 MiB: on the mark again: the maximum window, 2048 pages from 6 MiB, as two
  // 4 MiB requests; then it waits for the request it needs, sent by read #2.
  step = r.reads.next(9, store, s, Bytes(2 * MiB), Bytes(3 * MiB), r.issue);
  CHECK(step.wait);
  REQUIRE(r.sent.size() == 4);
  CHECK(r.sent[2] == std::pair<i64, i64>{6 * MiB, 4 * MiB});
  CHECK(r.sent[3] == std::pair<i64, i64>{10 * MiB, 4 * MiB});
  CHECK(r.reads.done(&store, Bytes(2 * MiB)) == std::vector<CachedReads::Id>{9});
  // A request nobody waits for completes with no reads to resume.
  CHECK(r.reads.done(&store, Bytes(6 * MiB)).empty());
}

TEST_CASE("readahead reads nothing twice and nothing past the store's end", "[readahead][cached_reads]") {
  SimContext ctx{1};
  testing::FakeStore store(ctx, "disk0");  // 1 GiB: 262,144 pages
  Reader r;
  CachedReads::Stream& s = r.reads.stream(store, 0, {2048, 1024, false});
  // Read the last 16 MiB of the store in 1 MiB read()s, completing every request at once.
  const i64 base = 1024 * MiB - 16 * MiB;
  for (i64 off = base; off < 1024 * MiB; off += MiB) {
    for (Bytes cur(off); cur < Bytes(off + MiB);) {
      const size_t before = r.sent.size();
      const CachedReads::Step step = r.reads.next(1, store, s, cur, Bytes(off + MiB), r.issue);
      for (size_t i = before; i < r.sent.size(); ++i) r.reads.done(&store, Bytes(r.sent[i].first));
      if (!step.wait) cur = step.limit;
    }
    s.ra.read_done((off + MiB) / 4096);
  }
  i64 total = 0, last_end = 0;
  for (const auto& [offset, size] : r.sent) {
    CHECK(offset >= last_end);  // in order, never overlapping
    last_end = offset + size;
    total += size;
  }
  CHECK(total == 16 * MiB);        // every byte once
  CHECK(last_end == 1024 * MiB);   // and none past the end
}
