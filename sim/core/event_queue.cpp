#include "sim/core/event_queue.hpp"

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
  if (slots_.size() >= UINT32_MAX - 1) throw std::length_error("event queue: too many pending events");
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

void EventQueue::file(const Entry& e) {
  const int level = level_of(e.time);
  const int digit = static_cast<int>((e.time >> (level * kDigitBits)) & (kSlots - 1));
  buckets_[static_cast<std::size_t>(level * kSlots + digit)].add(e);
  occupied_[static_cast<std::size_t>(level)] |= std::uint64_t{1} << digit;
  levels_ |= 1u << level;
}

void EventQueue::push(Time at, std::uint32_t slot) {
  if (at < now_) throw std::logic_error("event queue: an event was scheduled in the past");
  slots_[slot].next_free = UINT32_MAX;
  file(Entry{at.ps, slot});
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
  const int digit = std::countr_zero(occupied_[static_cast<std::size_t>(level)]);
  Bucket& b = buckets_[static_cast<std::size_t>(level * kSlots + digit)];
  occupied_[static_cast<std::size_t>(level)] &= ~(std::uint64_t{1} << digit);
  if (occupied_[static_cast<std::size_t>(level)] == 0) levels_ &= ~(1u << level);
  // Each bucket keeps its minimum as entries arrive, so no pass is needed to find it.
  // Relative to it every entry of the bucket differs in a lower digit only.
  last_ = b.min;
  // Entries keep their relative order, so equal times stay in insertion order.
  for (const Entry& e : b.items) {
    // Entries that land in level 0 run within a few steps: start fetching their
    // (likely cold) slots now so the misses overlap.
    if (level_of(e.time) == 0) __builtin_prefetch(&slots_[e.slot]);
    file(e);
  }
  b.min = INT64_MAX;
  // Give back the storage of a large emptied bucket: otherwise every bucket keeps the
  // most it ever held and memory grows to several times the pending events.
  if (b.items.capacity() > 4096 && b.items.capacity() * 2 > entries_) {
    std::vector<Entry>().swap(b.items);
  } else {
    b.items.clear();
  }
  return true;
}

void EventQueue::pop_front(Bucket& b) {
  --entries_;
  if (++b.head < b.items.size()) return;
  // Emptied: all entries of a level-0 bucket share one time, so it is done with.
  const int digit = static_cast<int>(&b - buckets_.data());
  occupied_[0] &= ~(std::uint64_t{1} << digit);
  if (occupied_[0] == 0) levels_ &= ~1u;
  b.head = 0;
  b.min = INT64_MAX;
  if (b.items.capacity() > 4096 && b.items.capacity() * 2 > entries_) {
    std::vector<Entry>().swap(b.items);
  } else {
    b.items.clear();
  }
}

Time EventQueue::next_time() {
  while (refill()) {
    Bucket& b = front_bucket();
    const Entry e = b.items[b.head];
    if (slots_[e.slot].next_free != kCancelled) return Time(e.time);
    pop_front(b);  // drop a cancelled entry and free its slot
    free_slot_only(e.slot);
  }
  return Time::max();
}

bool EventQueue::step() {
  while (refill()) {
    Bucket& b = front_bucket();
    const Entry e = b.items[b.head];
    pop_front(b);
    Slot& slot = slots_[e.slot];
    if (slot.next_free == kCancelled) {
      free_slot_only(e.slot);
      continue;
    }
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

void EventQueue::run_until(Time until) {
  while (next_time() <= until && step()) {
  }
}

std::size_t EventQueue::memory_bytes() const {
  std::size_t n = slots_.capacity() * sizeof(Slot);
  for (const Bucket& b : buckets_) n += b.items.capacity() * sizeof(Entry);
  return n;
}

}  // namespace iowall
