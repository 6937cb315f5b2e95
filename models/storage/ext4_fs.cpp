#include "models/storage/ext4_fs.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/config/registry.hpp"
#include "sim/core/error.hpp"

namespace iowall {

namespace {
constexpr i64 kBlock = 4096;                 // ext4's block (the journal's too)
constexpr i64 kGroup = 32768 * kBlock;       // a block group: one bitmap block of 4 KiB maps 32768 blocks
constexpr i64 kDescriptorsPerBlock = 64;     // 64-byte group descriptors (64bit feature)
constexpr i64 kExtentsInInode = 4;           // i_block holds the tree's root: 4 extents
constexpr i64 kExtentsPerLeaf = 340;         // (4096 - 12) / 12-byte extent entries
constexpr i64 kTagsPerDescriptor = 255;      // jbd2 descriptor block: (4096 - 12 - 4) / 16-byte tag3
}  // namespace

JournalBlocks journal_blocks(Bytes allocated, Bytes file_allocated, Bytes extent_max) {
  JournalBlocks b;
  b.metadata = 1;  // the inode's block: its timestamps and size
  if (allocated.is_positive()) {
    const i64 groups = ceil_div(allocated, Bytes(kGroup));
    b.metadata += groups + (groups + kDescriptorsPerBlock - 1) / kDescriptorsPerBlock;
    const i64 extents = ceil_div(file_allocated, extent_max);
    if (extents > kExtentsInInode) b.metadata += (extents + kExtentsPerLeaf - 1) / kExtentsPerLeaf;
  }
  b.descriptors = (b.metadata + kTagsPerDescriptor - 1) / kTagsPerDescriptor;
  return b;
}

Ext4Fs::Ext4Fs(const Params& p, SimContext& ctx) : StackedStore(p, ctx) {
  register_stat("ios", "I/Os", "reads and writes the file system took", ios_);
  register_stat("pieces", "commands", "pieces sent to the store (an I/O splits at extent boundaries)", pieces_);
  register_stat("syncs", "syncs", "fsync, fdatasync and O_DSYNC writes asking for durability", syncs_);
  register_stat("commits", "commits", "jbd2 transactions committed (fsync, fdatasync or O_DSYNC after a change)",
                commits_);
  register_stat("journal_blocks", "blocks", "4 KiB blocks written to the journal, commit blocks included",
                journal_blocks_);
  register_stat("cache_flushes", "flushes", "syncs that found their changes committed: a cache flush only",
                cache_flushes_);
}

void Ext4Fs::find_devices(const std::function<Device*(const std::string&)>& find) {
  const Params& p = params();
  const BlockLimits& s = find_single_member(find, "device", device).limits();
  if (!extent_max.is_positive() || !extent_max.is_multiple_of(Bytes(kBlock)) || !extent_max.is_multiple_of(s.lba_size))
    p.fail("extent_max", fmt::format("{} is not a positive multiple of 4 KiB and of {}'s logical block", to_string(extent_max), device));
  if (!timestamp_granularity.is_positive())
    p.fail("timestamp_granularity", fmt::format("{} is not a positive time", to_string(timestamp_granularity)));
  // jbd2 refuses a journal of fewer than JBD2_MIN_JOURNAL_BLOCKS (1024) blocks.
  if (journal_size < Bytes(1024 * kBlock) || !journal_size.is_multiple_of(Bytes(kBlock)))
    p.fail("journal_size", fmt::format("{} is not a multiple of 4 KiB of at least 4 MiB (jbd2's 1024 blocks)",
                                       to_string(journal_size)));
  // The journal at the midpoint, on an extent boundary so that no file extent spans it.
  journal_at_ = round_down(s.capacity / 2, extent_max);
  if (journal_at_ + journal_size > s.capacity || s.capacity - journal_size < extent_max)
    p.fail("journal_size", fmt::format("{} leaves no room for data on {} ({})", to_string(journal_size), device,
                                       to_string(s.capacity)));
  BlockLimits l = s;
  l.capacity = s.capacity - journal_size;
  if (existing_file_size.is_negative() || existing_file_size > l.capacity)
    p.fail("existing_file_size", fmt::format("{} is not between 0 and the file system's {}", to_string(existing_file_size),
                                             to_string(l.capacity)));
  if (existing_file_size.is_positive()) {
    written_.add(0, round_up(existing_file_size, Bytes(kBlock)).count());
  }
  set_limits(l);
  set_place(store().place());
}

Bytes Ext4Fs::store_offset(Bytes offset) const {
  return offset < journal_at_ ? offset : offset + journal_size;
}

void Ext4Fs::split(bool write, i64 at, i64 end, const Fanout& f, RouteMover& mover, Done done, const BlockIo& io) {
  if (write) {
    const Bytes fresh = allocate(at, end);
    const i64 tick = ctx().now() / timestamp_granularity;
    if (tick != stamp_tick_ || fresh.is_positive()) inode_tid_ = running_;
    stamp_tick_ = tick;
    if (fresh.is_positive()) {
      alloc_tid_ = running_;
      running_allocated_ += fresh;
    }
  }
  const i64 e = extent_max.count();
  const std::uint32_t id = expect(done, (end - 1) / e - at / e + 1);
  while (at < end) {
    const i64 piece_end = std::min(end, (at / e + 1) * e);
    pieces_.add();
    send_piece(write, 0, Bytes(piece_end - at), store_offset(Bytes(at)), f, mover, id, io);
    at = piece_end;
  }
}

Bytes Ext4Fs::allocate(i64 at, i64 end) {
  // Blocks, not bytes, are allocated: widen to whole 4 KiB blocks.
  const Bytes block(kBlock);
  return written_.add(round_down(Bytes(at), block).count(), round_up(Bytes(end), block).count());
}

void Ext4Fs::flush(Done done, SyncScope scope) {
  syncs_.add();
  const i64 need = scope == SyncScope::file ? inode_tid_ : alloc_tid_;
  if (need <= committed_) {
    // Committed already: the data needs only the store's cache flushed.
    cache_flushes_.add();
    store().flush(done, SyncScope::data);
    return;
  }
  waiting_.push_back({need, done});
  if (!committing_) start_commit();
}

void Ext4Fs::start_commit() {
  committing_ = true;
  const Bytes allocated = running_allocated_;
  running_allocated_ = Bytes(0);
  ++running_;
  commits_.add();
  const JournalBlocks b = journal_blocks(allocated, written_.total(), extent_max);
  // The descriptor and metadata blocks, then PREFLUSH, the commit block, and FUA's flush.
  journal_write(b.total(), [this] {
    store().flush(
        [this] {
          journal_write(1, [this] { store().flush([this] { commit_done(); }, SyncScope::data); });
        },
        SyncScope::data);
  });
}

void Ext4Fs::journal_write(i64 blocks, Done then) {
  const i64 journal_blocks_n = journal_size / Bytes(kBlock);
  // A transaction larger than the log is written as the log holds it (jbd2 would have
  // closed it earlier); the circular log wraps: a write past its end starts at the top.
  blocks = std::min(blocks, journal_blocks_n);
  if (journal_head_ + blocks > journal_blocks_n) journal_head_ = 0;
  const Bytes at = journal_at_ + Bytes(journal_head_ * kBlock);
  journal_head_ += blocks;
  journal_blocks_.add(blocks);
  write_own(0, Bytes(blocks * kBlock), at, then);
}

void Ext4Fs::commit_done() {
  committing_ = false;
  ++committed_;
  // Syncs the commit covered end; the rest need the transaction that ran meanwhile.
  std::deque<Waiter> still;
  std::deque<Done> ready;
  for (Waiter& w : waiting_) {
    if (w.tid <= committed_)
      ready.push_back(w.done);
    else
      still.push_back(w);
  }
  waiting_ = std::move(still);
  if (!waiting_.empty()) start_commit();
  for (const Done& d : ready) d();
}

std::string Ext4Fs::pending_work() const {
  if (in_flight() == 0 && waiting_.empty()) return {};
  return fmt::format("{} I/O(s) waiting for the store, {} sync(s) waiting for a journal commit", in_flight(),
                     waiting_.size());
}

IOWALL_REGISTER_DEVICE(Ext4Fs, "ext4", "ext4: a file on block storage, its extents and its jbd2 journal");

}  // namespace iowall
