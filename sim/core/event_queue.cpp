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
  if (slots_.size() >= kNil - 1) throw std::length_error("event queue: too many pending events");
  slots_.emplace_back();
  links_.emplace_back();
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

void EventQueue::file(std::uint32_t s) {
  Link& link = links_[s];
  const i64 t = link.time;
  const int level = level_of(t);
  const int digit = static_cast<int>((t >> (level * kDigitBits)) & (kSlots - 1));
  Bucket& b = buckets_[static_cast<std::size_t>(level * kSlots + digit)];
  link.next = kNil;
  if (b.tail == kNil)
    b.head = s;
  else
    links_[b.tail].next = s;
  b.tail = s;
  b.min = t < b.min ? t : b.min;
  occupied_[static_cast<std::size_t>(level)] |= std::uint64_t{1} << digit;
  levels_ |= 1u << level;
}

void EventQueue::push(Time at, std::uint32_t slot) {
  if (at < now_) throw std::logic_error("event queue: an event was scheduled in the past");
  slots_[slot].next_free = UINT32_MAX;
  links_[slot].time = at.ps;
  file(slot);
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
  std::uint32_t s = b.head;
  b = Bucket{};
  // In list order, so equal times stay in insertion order.
  while (s != kNil) {
    const std::uint32_t next = links_[s].next;
    // Entries that land in level 0 run within a few steps: start fetching their
    // (likely cold) slots now so the misses overlap.
    if (level_of(links_[s].time) == 0) __builtin_prefetch(&slots_[s]);
    file(s);
    s = next;
  }
  return true;
}

std::uint32_t EventQueue::pop_front(Bucket& b) {
  const std::uint32_t s = b.head;
  --entries_;
  b.head = links_[s].next;
  if (b.head == kNil) {  // emptied: all entries of a level-0 bucket share one time
    b = Bucket{};
    const int digit = static_cast<int>(&b - buckets_.data());
    occupied_[0] &= ~(std::uint64_t{1} << digit);
    if (occupied_[0] == 0) levels_ &= ~1u;
  }
  return s;
}

Time EventQueue::next_time() {
  while (refill()) {
    Bucket& b = front_bucket();
    if (slots_[b.head].next_free != kCancelled) return Time(links_[b.head].time);
    free_slot_only(pop_front(b));  // drop a cancelled entry and free its slot
  }
  return Time::max();
}

bool EventQueue::step_until(Time until) {
  while (refill()) {
    Bucket& b = front_bucket();
    const std::uint32_t s = b.head;
    Slot& slot = slots_[s];
    if (slot.next_free == kCancelled) {
      free_slot_only(pop_front(b));
      continue;
    }
    const Time at(links_[s].time);
    if (at > until) return false;
    pop_front(b);
    now_ = at;
    --live_;
    // Copy the callable out so the slot can be reused by what it schedules.
    alignas(8) unsigned char storage[kInlineBytes];
    std::memcpy(storage, slot.storage, kInlineBytes);
    auto invoke = slot.invoke;
    free_slot(s);
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
  return slots_.capacity() * sizeof(Slot) + links_.capacity() * sizeof(Link) + sizeof(buckets_);
}

}  // namespace iowall
