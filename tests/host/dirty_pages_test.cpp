// Dirty page writeback against a mock device that writes at a fixed bandwidth: nothing
// is written back below the background threshold until it expires; a writer faster
// than the device is held to the device's rate once past freerun and never takes the
// dirty total past the hard limit; fsync writes back what its file dirtied and flushes
// once.
#include <catch2/catch.hpp>

#include <algorithm>

#include "models/host/dirty_pages.hpp"

namespace {

using namespace iowall;

constexpr i64 MiB = 1 << 20, GiB = i64{1} << 30;

// A device that takes writeback requests one after another at `bw` bytes per second
// and flushes its cache in `flush_time`.
class MockSink final : public WritebackSink {
public:
  MockSink(SimContext& ctx, double bw, Time flush_time) : ctx_(ctx), bw_(bw), flush_time_(flush_time) {}
  void write_back(Bytes bytes, Done done) override {
    const Time start = std::max(ctx_.now(), busy_until_);
    busy_until_ = start + Time(static_cast<i64>(static_cast<double>(bytes.n) / bw_ * 1e12));
    written += bytes.n;
    ++requests;
    pending_.push_back(done);
    ctx_.at(busy_until_, [this] {
      const Done d = pending_.front();
      pending_.erase(pending_.begin());
      d();
    });
  }
  void flush(Done done, SyncScope) override {
    ++flushes;
    flush_done_ = done;
    ctx_.in(flush_time_, [this] { flush_done_(); });
  }
  i64 written = 0, requests = 0, flushes = 0;

private:
  SimContext& ctx_;
  double bw_;
  Time flush_time_, busy_until_{};
  std::vector<Done> pending_;
  Done flush_done_;
};

DirtyPagesConfig config(i64 memory) {
  DirtyPagesConfig c;
  c.dirtyable_memory = Bytes(memory);
  return c;
}

// A writer that dirties `total` in `chunk` pieces as fast as the page cache lets it
// (its own copy time is left out, so any pause is the throttle's).
struct Writer {
  DirtyPages& pages;
  WritebackSink& sink;
  i64 chunk, left;
  Time done_at{};
  i64 max_dirty = 0;
  SimContext& ctx;
  void next() {
    max_dirty = std::max(max_dirty, (pages.dirty() + pages.writeback()).n);
    if (left <= 0) {
      done_at = ctx.now();
      return;
    }
    left -= chunk;
    pages.dirtied(sink, Bytes(chunk), [this] { next(); });
  }
};

}  // namespace

TEST_CASE("thresholds follow the ratios of dirtyable memory, or the byte settings", "[host][writeback]") {
  SimContext ctx(1);
  DirtyPages a(ctx, "a", config(10 * GiB));
  CHECK(a.background_threshold().n == GiB);      // 10% of 10 GiB
  CHECK(a.threshold().n == 2 * GiB);             // 20%
  DirtyPagesConfig c = config(10 * GiB);
  c.bytes = Bytes(512 * MiB);
  c.background_bytes = Bytes(GiB);               // at or above the limit: halved
  DirtyPages b(ctx, "b", c);
  CHECK(b.threshold().n == 512 * MiB);
  CHECK(b.background_threshold().n == 256 * MiB);
}

TEST_CASE("below the background threshold nothing is written back until it expires", "[host][writeback]") {
  SimContext ctx(1);
  DirtyPages pages(ctx, "pc", config(10 * GiB));  // background 1 GiB
  MockSink dev(ctx, 1e9, Time(0));
  Writer w{pages, dev, MiB, 512 * MiB, {}, 0, ctx};
  w.next();
  ctx.run(Time(29'000'000'000'000));  // 29 s: younger than dirty_expire (30 s)
  CHECK(w.done_at == Time(0));        // never paused: all at once
  CHECK(pages.throttled().ps == 0);
  CHECK(dev.written == 0);
  ctx.run();
  // The flusher wakes every 5 s: the data, dirtied at 0, expires at 30 s and goes then.
  CHECK(dev.written == 512 * MiB);
  CHECK(ctx.now().seconds() == Approx(30.0 + 512.0 * MiB / 1e9).epsilon(0.001));
}

TEST_CASE("a writer faster than the device is held near its rate below the hard limit", "[host][writeback]") {
  SimContext ctx(1);
  DirtyPages pages(ctx, "pc", config(10 * GiB));  // background 1 GiB, limit 2 GiB
  MockSink dev(ctx, 1e9, Time(0));
  const i64 total = 8 * GiB;
  Writer w{pages, dev, MiB, total, {}, 0, ctx};
  w.next();
  ctx.run();
  // Never past the hard limit by more than one write.
  CHECK(w.max_dirty <= 2 * GiB + MiB);
  // The writer cannot finish before the device has taken all but what the page cache
  // may hold (at most the hard limit): (8 - 2) GiB at 1 GB/s.
  CHECK(w.done_at.seconds() >= (6.0 * GiB) / 1e9);
  // ... and it is throttled: it is held to the device's pace, ending no later than the
  // device finishes writing everything.
  CHECK(w.done_at.seconds() <= 8.0 * GiB / 1e9 + 0.01);
  CHECK(pages.throttled().seconds() > 1.0);
  CHECK(dev.written == total);
  CHECK(dev.requests == total / MiB);  // 1 MiB writeback requests
}

TEST_CASE("fsync writes back its file's dirty data, then flushes the device once", "[host][writeback]") {
  SimContext ctx(1);
  DirtyPages pages(ctx, "pc", config(10 * GiB));
  MockSink dev(ctx, 1e9, Time(2'000'000'000));  // flush 2 ms
  Writer w{pages, dev, MiB, 100 * MiB, {}, 0, ctx};
  w.next();
  Time synced{};
  pages.sync(dev, [&] { synced = ctx.now(); }, SyncScope::file);
  ctx.run();
  CHECK(dev.written == 100 * MiB);
  CHECK(dev.flushes == 1);
  // 100 MiB at 1 GB/s, then the 2 ms flush.
  CHECK(synced.seconds() == Approx(100.0 * MiB / 1e9 + 0.002).epsilon(0.001));
}
