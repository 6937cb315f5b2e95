// The event queue: a monotone radix heap keyed by integer picoseconds, with 64 buckets
// per 6-bit digit of the key (a hierarchical timing wheel whose slots keep their
// minimum), over a pool of event slots that hold small callables inline. An event
// is filed under the highest digit in which its time differs from the last minimum
// taken, so it moves down at most one level per digit, about 2-4 times from far
// ahead, against one move per bit with two buckets a digit. Ties fire in insertion
// order (every event of one time sits in one bucket, appended in order),
// cancellation is lazy (a generation number per slot), and steady-state scheduling
// allocates nothing.
#pragma once
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/core/units.hpp"

namespace iowall {

// Names one scheduled event so that it can be cancelled.
struct EventId {
  std::uint32_t slot = UINT32_MAX;
  std::uint32_t generation = 0;
  bool valid() const { return slot != UINT32_MAX; }
};

class EventQueue {
public:
  static constexpr std::size_t kInlineBytes = 24;  // room for `this` plus two 8-byte values

  EventQueue();
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;

  Time now() const { return now_; }
  std::size_t pending() const { return live_; }
  std::uint64_t executed() const { return executed_; }

  // Schedules `fn()` at absolute time `at` (not before now). The callable must be
  // trivially copyable and fit in kInlineBytes: capture pointers and small values.
  template <typename F>
  EventId schedule(Time at, F&& fn) {
    using Fn = std::decay_t<F>;
    static_assert(sizeof(Fn) <= kInlineBytes, "event callable too large: capture less");
    static_assert(std::is_trivially_copyable_v<Fn>, "event callable must be trivially copyable");
    static_assert(alignof(Fn) <= alignof(std::max_align_t));
    const std::uint32_t s = allocate_slot();
    Slot& slot = slots_[s];
    ::new (static_cast<void*>(slot.storage)) Fn(std::forward<F>(fn));
    slot.invoke = [](void* p) { (*std::launder(static_cast<Fn*>(p)))(); };
    push(at, s);
    return EventId{s, slot.generation};
  }
  template <typename F>
  EventId schedule_in(Time delay, F&& fn) {
    return schedule(now_ + delay, std::forward<F>(fn));
  }

  // Cancels a pending event; cancelling one that already ran or was cancelled is a no-op.
  bool cancel(EventId id);

  // Runs the earliest event. Returns false when no event is pending.
  bool step();
  // Runs the earliest event if it lies at or before `until`; false otherwise.
  bool step_until(Time until);
  // Runs events until none is pending or the next one lies after `until`.
  void run_until(Time until);
  // Time of the earliest pending event (Time::max() when none).
  Time next_time();

  // Bytes held by the queue's storage (for the memory benchmark).
  std::size_t memory_bytes() const;

private:
  struct alignas(8) Slot {
    void (*invoke)(void*) = nullptr;
    alignas(8) unsigned char storage[kInlineBytes];
    std::uint32_t generation = 0;  // bumped when the slot is freed or cancelled
    std::uint32_t next_free = UINT32_MAX;  // UINT32_MAX - 1 marks a cancelled, pending slot
  };
  static constexpr std::uint32_t kCancelled = UINT32_MAX - 1;
  // 12 bytes: the generation is not stored; a cancelled slot stays allocated, marked,
  // until its entry comes up, so a stale entry can never name a reused slot.
#pragma pack(push, 4)
  struct Entry {
    i64 time;
    std::uint32_t slot;
  };
#pragma pack(pop)
  static constexpr std::uint32_t kNil = UINT32_MAX;
  // A bucket holds its first entries in place (most buckets of a simulation hold one
  // or two, and the bucket array stays in cache) and the rest in a FIFO chain of
  // fixed-size blocks drawn from one pool: moving events reads and writes them in
  // sequence (a chain of single entries would be a dependent cache miss per event at
  // a million pending), and an emptied bucket gives its blocks back at once, so
  // memory follows the pending events, not each bucket's peak.
  static constexpr std::uint32_t kInline = 3;
  static constexpr std::uint32_t kBlockEntries = 21;  // 256-byte blocks
  struct Block {
    Entry items[kBlockEntries];
    std::uint32_t next = kNil;
  };
  struct Bucket {
    Entry first[kInline];
    std::uint32_t count = 0;                 // entries written since the bucket was last emptied
    std::uint32_t taken = 0;                 // entries consumed from the front (level 0)
    std::uint32_t head = kNil, tail = kNil;  // block chain of the entries after the first kInline
    i64 min = INT64_MAX;                     // smallest key added since the bucket was last emptied
  };
  static constexpr int kDigitBits = 6;
  static constexpr int kSlots = 1 << kDigitBits;  // buckets per level
  static constexpr int kLevels = 11;              // 11 digits of 6 bits cover 63-bit keys

  std::uint32_t allocate_slot();
  void free_slot(std::uint32_t s);       // bumps the generation, then frees
  void free_slot_only(std::uint32_t s);  // frees a slot whose generation was already bumped
  // The level is the highest 6-bit digit in which `t` differs from the last minimum
  // taken; the bucket within the level is t's value of that digit.
  int level_of(i64 t) const {
    const std::uint64_t x = static_cast<std::uint64_t>(t) ^ static_cast<std::uint64_t>(last_);
    return x == 0 ? 0 : (63 - std::countl_zero(x)) / kDigitBits;
  }
  void file(const Entry& e);  // into its bucket, relative to last_
  std::uint32_t allocate_block();
  void free_block(std::uint32_t b);
  void push(Time at, std::uint32_t slot);
  // Makes a level-0 bucket non-empty by redistributing the lowest non-empty bucket of
  // the lowest non-empty level; false if the queue is empty.
  bool refill();
  Bucket& front_bucket() { return buckets_[static_cast<std::size_t>(std::countr_zero(occupied_[0]))]; }
  const Entry& front(const Bucket& b) const {
    return b.taken < kInline ? b.first[b.taken] : blocks_[b.head].items[(b.taken - kInline) % kBlockEntries];
  }
  void pop_front(Bucket& b);  // drops the front entry of a level-0 bucket

  std::array<Bucket, kLevels * kSlots> buckets_;
  std::array<std::uint64_t, kLevels> occupied_{};  // bit s of level l: bucket (l, s) holds entries
  std::uint32_t levels_ = 0;                       // bit l: level l holds entries
  std::vector<Slot> slots_;
  std::vector<Block> blocks_;
  std::uint32_t free_block_ = kNil;  // chained through Block::next
  std::uint32_t free_head_ = UINT32_MAX;
  i64 last_ = 0;  // the radix heap's reference key: the last minimum taken
  Time now_{};
  std::size_t live_ = 0;     // scheduled and not cancelled
  std::size_t entries_ = 0;  // entries in buckets, cancelled ones included
  std::uint64_t executed_ = 0;
};

}  // namespace iowall
