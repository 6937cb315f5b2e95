// ext4 over a mock store (models/storage/ext4_fs.hpp): extents split I/Os and skip the
// journal, and durability follows ext4_sync_file and jbd2: an fdatasync commits only an
// allocation, an fsync any change, a commit is journal blocks + flush + commit block +
// flush, and syncs that arrive during a commit share the next one.
#include <catch2/catch.hpp>

#include <memory>

#include "models/storage/ext4_fs.hpp"
#include "sim/config/scenario.hpp"
#include "sim/report/run_result_json.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/fake_storage.hpp"

using namespace iowall;
using iowall::testing::FakeRoutes;
using iowall::testing::FakeStore;

namespace {
constexpr i64 KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

// A 1 GiB mock store under ext4 with a 64 MiB journal: the journal sits at 512 MiB (the
// midpoint, on a 128 MiB extent boundary), the file's space is 1 GiB - 64 MiB.
struct Fs {
  SimContext ctx{1};
  FakeStore store{ctx, "d0"};
  FakeRoutes routes;
  RouteMover mover{ctx};
  const Route given{{}, {"fs0", "gpu0"}};
  std::unique_ptr<Ext4Fs> fs;
  explicit Fs(Json extra = Json::object()) {
    Json p = {{"id", "fs0"}, {"model", "ext4"}, {"device", "d0"}, {"journal_size", "64 MiB"}};
    p.update(extra);
    fs = std::make_unique<Ext4Fs>(Params(p, {"t.json", "/devices/9"}), ctx);
    fs->find_devices([this](const std::string& id) -> Device* { return id == "d0" ? &store : nullptr; });
  }
  BlockIo at(i64 offset) {
    BlockIo io;
    io.offset = Bytes(offset);
    io.queues.stacked = &routes;
    return io;
  }
  // Completes what the store holds until nothing is left (a commit's steps come one by one).
  void drain() {
    for (int i = 0; i < 100 && !store.pending.empty(); ++i) store.complete();
  }
  void write(i64 offset, i64 size) {
    bool done = false;
    fs->write(Bytes(size), given, mover, [&done] { done = true; }, at(offset));
    drain();
    REQUIRE(done);
  }
  // Runs one sync to its end; returns the store's calls and flushes it took.
  struct Took {
    std::size_t writes = 0;
    int flushes = 0;
    i64 journal_bytes = 0;
  };
  Took sync(SyncScope scope) {
    const std::size_t calls = store.calls.size();
    const int flushes = store.flushes;
    bool done = false;
    fs->flush([&done] { done = true; }, scope);
    drain();
    REQUIRE(done);
    Took t;
    for (std::size_t i = calls; i < store.calls.size(); ++i) {
      ++t.writes;
      t.journal_bytes += store.calls[i].size;
      CHECK(store.calls[i].write);
      // Journal blocks go between 512 MiB and 576 MiB, from host memory.
      CHECK(store.calls[i].offset >= 512 * MiB);
      CHECK(store.calls[i].offset + store.calls[i].size <= 576 * MiB);
      CHECK(store.calls[i].route->devices.front() == "dram0");
    }
    t.flushes = store.flushes - flushes;
    return t;
  }
};
}  // namespace

TEST_CASE("ext4's journal blocks: the inode, a bitmap per block group, descriptors, extent leaves", "[storage][ext4]") {
  const Bytes extent(128 * MiB);
  // A timestamp change alone: the inode's block and one descriptor block.
  CHECK(journal_blocks(Bytes(0), Bytes(GiB), extent).metadata == 1);
  CHECK(journal_blocks(Bytes(0), Bytes(GiB), extent).descriptors == 1);
  // 4 KiB newly allocated in a file of 4 KiB: inode + 1 bitmap + 1 group-descriptor block.
  CHECK(journal_blocks(Bytes(4 * KiB), Bytes(4 * KiB), extent).metadata == 3);
  // 1 GiB newly allocated: 8 groups of 128 MiB (8 bitmaps, 1 descriptor block of 64), and
  // 8 extents are more than the inode's 4: one leaf block. 1 + 8 + 1 + 1 = 11.
  CHECK(journal_blocks(Bytes(GiB), Bytes(GiB), extent).metadata == 11);
  // 64 GiB: 512 groups -> 512 bitmaps + 8 descriptor blocks; 512 extents -> 2 leaves: 523
  // metadata blocks, listed by 3 descriptor blocks of 255 tags.
  const JournalBlocks big = journal_blocks(Bytes(64 * GiB), Bytes(64 * GiB), extent);
  CHECK(big.metadata == 1 + 512 + 8 + 2);
  CHECK(big.descriptors == 3);
}

TEST_CASE("ext4 maps the file past the journal and splits I/Os at extent boundaries", "[storage][ext4]") {
  Fs f;
  CHECK(f.fs->limits().capacity.n == GiB - 64 * MiB);
  CHECK(f.fs->store_offset(Bytes(512 * MiB - 4 * KiB)).n == 512 * MiB - 4 * KiB);
  CHECK(f.fs->store_offset(Bytes(512 * MiB)).n == 576 * MiB);
  // 1 MiB at 511.5 MiB: 512 KiB before the journal, 512 KiB after it, as two pieces.
  bool done = false;
  f.fs->read(Bytes(MiB), f.given, f.mover, [&done] { done = true; }, f.at(512 * MiB - 512 * KiB));
  REQUIRE(f.store.calls.size() == 2);
  CHECK(f.store.calls[0].offset == 512 * MiB - 512 * KiB);
  CHECK(f.store.calls[0].size == 512 * KiB);
  CHECK(f.store.calls[1].offset == 576 * MiB);
  CHECK(f.store.calls[1].size == 512 * KiB);
  f.store.complete();
  CHECK(done);
  // Within one extent: one piece.
  f.fs->read(Bytes(MiB), f.given, f.mover, [] {}, f.at(4 * MiB));
  CHECK(f.store.calls.size() == 3);
  f.store.complete();
}

TEST_CASE("fdatasync commits an allocation once and then only flushes, fsync commits the timestamps too",
          "[storage][ext4]") {
  Fs f;
  // A first write of 1 MiB allocates: O_DSYNC's data sync commits the transaction: the
  // descriptor block + inode + bitmap + group descriptor (4 blocks), a flush, the commit
  // block, a flush.
  f.write(0, MiB);
  const Fs::Took first = f.sync(SyncScope::data);
  CHECK(first.writes == 2);
  CHECK(first.journal_bytes == 5 * 4 * KiB);
  CHECK(first.flushes == 2);
  // Overwriting the same MiB allocates nothing: the data sync only flushes the store. The
  // coarse clock ticks (4 ms) before it: the inode's timestamps change.
  f.ctx.in(iowall::ms(5), [] {});
  f.ctx.run();
  f.write(0, MiB);
  const Fs::Took again = f.sync(SyncScope::data);
  CHECK(again.writes == 0);
  CHECK(again.flushes == 1);
  // fsync after that overwrite commits the inode's new timestamps: inode + descriptor +
  // commit block.
  const Fs::Took full = f.sync(SyncScope::file);
  CHECK(full.writes == 2);
  CHECK(full.journal_bytes == 3 * 4 * KiB);
  CHECK(full.flushes == 2);
  // Nothing changed since: fsync flushes only.
  const Fs::Took idle = f.sync(SyncScope::file);
  CHECK(idle.writes == 0);
  CHECK(idle.flushes == 1);
  // Another overwrite within the same 4 ms tick leaves the timestamps as they are: fsync
  // flushes only.
  f.write(0, MiB);
  CHECK(f.sync(SyncScope::file).writes == 0);
  // A write that half overlaps what was written allocates the other half: committed again.
  f.write(512 * KiB, MiB);
  CHECK(f.sync(SyncScope::data).writes == 2);
}

TEST_CASE("an existing file is overwritten without allocation: fdatasync flushes only", "[storage][ext4]") {
  Fs f(Json{{"existing_file_size", "8 MiB"}});
  f.write(4 * MiB, MiB);
  CHECK(f.sync(SyncScope::data).writes == 0);
  // Past its end the file grows: allocation, a commit.
  f.write(8 * MiB, MiB);
  CHECK(f.sync(SyncScope::data).writes == 2);
}

TEST_CASE("syncs that arrive during a commit wait for it and share the next one (group commit)", "[storage][ext4]") {
  Fs f;
  f.write(0, MiB);
  int done = 0;
  f.fs->flush([&done] { ++done; }, SyncScope::file);  // commit 1 starts: its journal write is pending
  REQUIRE(f.store.calls.size() == 2);                   // the data write, then the journal write
  // While commit 1 runs, two threads write and sync: both need transaction 2.
  f.fs->write(Bytes(MiB), f.given, f.mover, [] {}, f.at(MiB));
  f.fs->write(Bytes(MiB), f.given, f.mover, [] {}, f.at(2 * MiB));
  f.fs->flush([&done] { ++done; }, SyncScope::data);
  f.fs->flush([&done] { ++done; }, SyncScope::file);
  f.drain();
  CHECK(done == 3);
  // Two commits, not three: 2 x (journal write + commit block) after the 3 data writes.
  CHECK(f.store.calls.size() == 3 + 4);
  CHECK(f.store.flushes == 4);
}

TEST_CASE("ext4 input is checked: its device, journal and extent sizes", "[storage][ext4]") {
  SimContext ctx{1};
  FakeStore store{ctx, "d0"};
  const auto make = [&](Json p) {
    Json base = {{"id", "fs0"}, {"model", "ext4"}, {"device", "d0"}};
    base.update(p);
    Ext4Fs fs(Params(base, {"t.json", "/devices/9"}), ctx);
    fs.find_devices([&](const std::string& id) -> Device* { return id == "d0" ? &store : nullptr; });
  };
  CHECK_THROWS_WITH(make({{"device", "nvme7"}}), Catch::Contains("/devices/9/device") && Catch::Contains("nvme7"));
  CHECK_THROWS_WITH(make({{"journal_size", "2 GiB"}}), Catch::Contains("/devices/9/journal_size") &&
                                                           Catch::Contains("no room for data"));
  CHECK_THROWS_WITH(make({{"extent_max", "6 KiB"}}), Catch::Contains("/devices/9/extent_max"));
  CHECK_THROWS_WITH(make({{"journal_size", "1 MiB"}}), Catch::Contains("/devices/9/journal_size") &&
                                                           Catch::Contains("1024 blocks"));
  CHECK_THROWS_WITH(make({{"timestamp_granularity", "0 s"}}), Catch::Contains("/devices/9/timestamp_granularity"));
  CHECK_THROWS_WITH(make({{"journal_size", "64 MiB"}, {"existing_file_size", "2 GiB"}}),
                    Catch::Contains("/devices/9/existing_file_size"));
}
