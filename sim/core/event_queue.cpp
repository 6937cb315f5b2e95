#include "sim/core/event_queue.hpp"

#include "sim/core/error.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

namespace iowall {
EventQueue::EventQueue() { slots_.reserve(1024); }

std::uint32_t EventQueue::allocate_slot() {
  if (free_head_ != UINT32_MAX) {
    const std::uint32_t s = free_head_;
    free_head_ = slots_[s].next_free;
    return s;
  }
  if (slots_.size() >= kCancelled) throw std::length_error("event queue: too many pending events");
  slots_.emplace_back();
  return static_cast<std::uint32_t>(slots_.size() - 1);
}

void EventQueue::free_slot_only(std::uint32_t s) {
  slots_[s].next_free = free_head_;
  free_head_ = s;
}

void EventQueue::free_slot(std::uint32_t s) {
  Slot& slot = slots_[s];
  ++slot.generation;  // any entry still naming the old generation is now stale
  slot.next_free = free_head_;
  free_head_ = s;
}

std::uint32_t EventQueue::allocate_block() {
  std::uint32_t b = free_block_;
  if (b != kNil) {
    free_block_ = blocks_[b].next;
  } else {
    if (blocks_.size() >= kNil) throw std::length_error("event queue: too many pending events");
    b = static_cast<std::uint32_t>(blocks_.size());
    blocks_.emplace_back();
  }
  blocks_[b].next = kNil;
  return b;
}

void EventQueue::free_block(std::uint32_t b) {
  blocks_[b].next = free_block_;
  free_block_ = b;
}

void EventQueue::file(const Entry& e) {
  const int level = level_of(e.time);
  const int digit = static_cast<int>((e.time >> (level * kDigitBits)) & (kSlots - 1));
  Bucket& b = buckets_[static_cast<std::size_t>(level * kSlots + digit)];
  if (b.count < kInline) {
    b.first[b.count] = e;
  } else {
    const std::uint32_t k = (b.count - kInline) % kBlockEntries;
    if (k == 0) {  // the tail block is full, or there is none yet
      const std::uint32_t fresh = allocate_block();
      if (b.tail == kNil)
        b.head = fresh;
      else
        blocks_[b.tail].next = fresh;
      b.tail = fresh;
    }
    blocks_[b.tail].items[k] = e;
  }
  ++b.count;
  b.min = e.time < b.min ? e.time : b.min;
  occupied_[static_cast<std::size_t>(level)] |= std::uint64_t{1} << digit;
  levels_ |= 1u << level;
}

void EventQueue::push(Time at, std::uint32_t slot) {
  // Models add times to now(); an earlier time can only come from a sum that passed the
  // clock's range (2^63 ps, about 106 days) and wrapped.
  if (at < now_)
    throw RunError("simulated time overflowed: an event lies beyond the clock's range of about 106 days "
                   "(a time, size or rate in the input is out of proportion to the others)");
  slots_[slot].next_free = UINT32_MAX;
  file(Entry{at.whole_ps(), slot});  // entries keep integer ps: 16 bytes each
  ++live_;
  ++entries_;
}

bool EventQueue::cancel(EventId id) {
  if (!id.valid() || id.slot >= slots_.size()) return false;
  Slot& slot = slots_[id.slot];
  if (slot.generation != id.generation || slot.next_free == kCancelled) return false;
  ++slot.generation;
  slot.next_free = kCancelled;  // freed when its entry is taken from the queue
  --live_;
  return true;
}

bool EventQueue::refill() {
  if (occupied_[0] != 0) return true;
  if (levels_ == 0) return false;
  // The lowest bucket of the lowest level holds the smallest keys: every key in a
  // level shares the digits above it with last_, and a lower bucket a lower digit.
  const int level = std::countr_zero(levels_);
  auto& occupied = occupied_[static_cast<std::size_t>(level)];
  const int digit = std::countr_zero(occupied);
  Bucket& b = buckets_[static_cast<std::size_t>(level * kSlots + digit)];
  occupied &= ~(std::uint64_t{1} << digit);
  if (occupied == 0) levels_ &= ~(1u << level);
  // Each bucket keeps its minimum as entries arrive, so no pass is needed to find it.
  // Relative to it every entry of the bucket differs in a lower digit only.
  last_ = b.min;
  const Bucket from = b;
  b = Bucket{};
  // In order, so equal times stay in insertion order: the entries in place, then the
  // blocks. Each block's entries are copied out and the block freed first: filing
  // may take a block from the pool (and grow it).
  auto move = [this](const Entry& e) {
    // Entries that land in level 0 run within a few steps: start fetching their
    // (likely cold) slots now so the misses overlap.
    if (level_of(e.time) == 0) __builtin_prefetch(&slots_[e.slot]);
    file(e);
  };
  for (std::uint32_t i = 0; i < std::min(from.count, kInline); ++i) move(from.first[i]);
  std::uint32_t left = from.count > kInline ? from.count - kInline : 0;
  Entry moving[kBlockEntries];
  for (std::uint32_t block = from.head; block != kNil;) {
    const std::uint32_t n = std::min(left, kBlockEntries), next = blocks_[block].next;
    std::memcpy(moving, blocks_[block].items, n * sizeof(Entry));
    free_block(block);
    for (std::uint32_t i = 0; i < n; ++i) move(moving[i]);
    left -= n;
    block = next;
  }
  return true;
}

void EventQueue::pop_front(Bucket& b) {
  --entries_;
  if (++b.taken == b.count) {
    // Emptied: all entries of a level-0 bucket share one time, so it is done with.
    if (b.head != kNil) free_block(b.head);  // the last block (the only one left)
    b = Bucket{};
    const int digit = static_cast<int>(&b - buckets_.data());
    occupied_[0] &= ~(std::uint64_t{1} << digit);
    if (occupied_[0] == 0) levels_ &= ~1u;
    return;
  }
  if (b.taken > kInline && (b.taken - kInline) % kBlockEntries == 0) {  // head block used up
    const std::uint32_t next = blocks_[b.head].next;
    free_block(b.head);
    b.head = next;
  }
}

Time EventQueue::next_time() {
  while (refill()) {
    Bucket& b = front_bucket();
    const Entry e = front(b);
    if (slots_[e.slot].next_free != kCancelled) return Time(e.time);
    pop_front(b);  // drop a cancelled entry and free its slot
    free_slot_only(e.slot);
  }
  return Time::max();
}

bool EventQueue::step_until(Time until) {
  while (refill()) {
    Bucket& b = front_bucket();
    const Entry e = front(b);
    Slot& slot = slots_[e.slot];
    if (slot.next_free == kCancelled) {
      pop_front(b);
      free_slot_only(e.slot);
      continue;
    }
    if (e.time > until.whole_ps()) return false;
    pop_front(b);
    now_ = Time(e.time);
    --live_;
    // Copy the callable out so the slot can be reused by what it schedules.
    alignas(8) unsigned char storage[kInlineBytes];
    std::memcpy(storage, slot.storage, kInlineBytes);
    auto invoke = slot.invoke;
    free_slot(e.slot);
    ++executed_;
    invoke(storage);
    return true;
  }
  return false;
}

bool EventQueue::step() { return step_until(Time::max()); }

void EventQueue::run_until(Time until) {
  while (step_until(until)) {
  }
}

std::size_t EventQueue::memory_bytes() const {
  return slots_.capacity() * sizeof(Slot) + blocks_.capacity() * sizeof(Block) + sizeof(buckets_);
}

}  // namespace iowall
