// ext4 as block storage stacked over one block store (a drive, an md array): a file's bytes
// reach the store through its extents, and its durability goes through the jbd2 journal.
//
// Data. O_DIRECT reads and writes, and the page cache's writeback, go to the store at the
// file's extents. mballoc gives a large file contiguous extents; one extent holds at most
// 32768 blocks (128 MiB of 4 KiB blocks) and iomap maps one extent per bio, so an I/O that
// crosses an extent boundary is split there. mke2fs puts the journal in the middle of the
// file system: the file's bytes skip it (its start is an extent boundary).
//
// Metadata. A write into blocks the file has not written before allocates them (delayed
// allocation at writeback, or an unwritten extent converted after an O_DIRECT write): the
// inode's extents, the block bitmap of each block group (128 MiB) the blocks lie in and
// their group descriptors change, in the running transaction. A write also changes the
// file's timestamps (its inode) when the clock they are taken from has ticked since the
// last change: current_time() reads the coarse clock, which moves once a jiffy, so a busy
// writer dirties its inode once per tick, not once per write.
//
// Durability (fs/ext4/fsync.c ext4_sync_file, fs/jbd2/commit.c, data=ordered, barriers on):
//   - fdatasync and O_DSYNC (scope data): the transaction holding the file's newest
//     allocation must be committed; when it is, only the store's cache is flushed.
//   - fsync (scope file): the transaction holding the inode's newest change (its
//     timestamps, at least, after any write) must be committed.
//   - A commit: the file's data is already on the store (the caller wrote it first);
//     jbd2 writes a descriptor block (255 block tags each) and the changed metadata blocks
//     to the journal, then the commit block with PREFLUSH and FUA: the store's cache
//     flushed, the commit block written, then flushed again (the block layer's FUA on a
//     device with a volatile cache). The blocks come from host memory. One transaction
//     commits at a time: syncs that arrive during a commit wait for it, and those that
//     need the running transaction share the next commit (jbd2's group commit).
// Not modelled: the periodic commit every 5 s (mount option commit) when nobody syncs,
// fragmentation, and the file system's CPU time per I/O (part of the path's I/O stack
// costs); the byte space is one file.
#pragma once
#include <deque>
#include <map>
#include <string>

#include "models/storage/byte_ranges.hpp"
#include "models/storage/stacked_store.hpp"
#include "sim/core/stats.hpp"

namespace iowall {

// The metadata blocks one commit journals: the inode's block, one block bitmap per block
// group the new blocks lie in, the group descriptor blocks of those groups (64 per
// block), and the extent tree's leaf blocks once the file outgrows the inode's four
// extents (340 per leaf); plus the descriptor blocks that list them.
struct JournalBlocks {
  i64 metadata = 0, descriptors = 0;
  i64 total() const { return metadata + descriptors; }
};
JournalBlocks journal_blocks(Bytes allocated, Bytes file_allocated, Bytes extent_max);

class Ext4Fs final : public StackedStore {
public:
  Ext4Fs(const Params& p, SimContext& ctx);

  IOWALL_PARAM(std::string, device, "", "the block storage device the file system is made on (a drive, an md array)",
               "mkfs.ext4(8)");
  IOWALL_PARAM(Bytes, journal_size, "1 GiB",
               "the journal: a circular log in the middle of the file system",
               "e2fsprogs lib/ext2fs/mkjournal.c ext2fs_default_journal_size: 1 GiB (262144 blocks of 4 KiB) for "
               "file systems of 128 GiB and more; the journal is placed at the midpoint");
  IOWALL_PARAM(Time, timestamp_granularity, "4 ms",
               "the coarse clock inode timestamps are taken from: a write changes the inode only when it has "
               "ticked since the last change",
               "fs/inode.c current_time() -> ktime_get_coarse_real_ts64(): one jiffy, 4 ms at CONFIG_HZ=250 (Debian "
               "and Ubuntu server kernels)");
  IOWALL_PARAM(Bytes, existing_file_size, "0 B",
               "bytes at the file's start already written when the run begins (an existing file overwritten: "
               "no allocation there); 0: a new file",
               "scenario choice: what the benchmark's file holds before the measured run");
  IOWALL_PARAM(Bytes, extent_max, "128 MiB",
               "the longest extent: an I/O is split where it crosses one (a multiple of the store's logical block)",
               "fs/ext4/ext4_extents.h EXT_INIT_MAX_LEN: 32768 blocks of 4 KiB");

  void flush(Done done, SyncScope scope) override;
  void find_devices(const std::function<Device*(const std::string&)>& find) override;
  std::string pending_work() const override;

  // The store's byte offset of file offset `offset` (past the journal when beyond it).
  Bytes store_offset(Bytes offset) const;
  BlockStorage& store() const { return *members_.front(); }

private:
  void split(bool write, i64 at, i64 end, const Fanout& f, RouteMover& mover, Done done, const BlockIo& io) override;
  // Marks [at, end) written: returns the bytes newly allocated.
  Bytes allocate(i64 at, i64 end);
  void start_commit();
  void journal_write(i64 blocks, Done then);
  void commit_done();

  Bytes journal_at_;
  ByteRanges written_;  // the file's allocated ranges
  // Transactions: running_ takes changes; committed_ is the newest on the journal; a
  // commit in progress is committed_ + 1.
  i64 running_ = 1, committed_ = 0;
  bool committing_ = false;
  i64 inode_tid_ = 0, alloc_tid_ = 0;  // the newest transaction holding an inode change, an allocation
  i64 stamp_tick_ = -1;                // the coarse clock's tick of the inode's timestamps
  Bytes running_allocated_;
  struct Waiter {
    i64 tid;
    Done done;
  };
  std::deque<Waiter> waiting_;
  i64 journal_head_ = 0;  // next block of the circular journal (written by write_own)
  Counter pieces_, syncs_, commits_, journal_blocks_, cache_flushes_;
};

}  // namespace iowall
