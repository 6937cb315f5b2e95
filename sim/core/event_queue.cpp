#include "sim/core/event_queue.hpp"

#include <cassert>
#include <stdexcept>

namespace iowall {
namespace {
constexpr int kPrefetchBuckets = 2;
}

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

void EventQueue::push(Time at, std::uint32_t slot) {
  if (at < now_) throw std::logic_error("event queue: an event was scheduled in the past");
  slots_[slot].next_free = UINT32_MAX;
  buckets_[bucket_of(at.ps)].add(Entry{at.ps, slot});
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
  Bucket& b0 = buckets_[0];
  if (!b0.empty()) return true;
  b0.items.clear();
  b0.head = 0;
  b0.min = INT64_MAX;
  if (entries_ == 0) return false;
  int i = 1;
  while (i < kBuckets && buckets_[i].items.empty()) ++i;
  if (i == kBuckets) return false;
  Bucket& b = buckets_[i];
  // Each bucket keeps its minimum as entries arrive, so no pass is needed to find it.
  last_ = b.min;
  // Entries keep their relative order, so equal times stay in insertion order.
  for (const Entry& e : b.items) {
    const int target = bucket_of(e.time);
    // Entries that land in the lowest buckets run within a few steps: start fetching
    // their (likely cold) slots now so the misses overlap.
    if (target <= kPrefetchBuckets) __builtin_prefetch(&slots_[e.slot]);
    buckets_[target].add(e);
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

Time EventQueue::next_time() {
  while (refill()) {
    Bucket& b0 = buckets_[0];
    const Entry& e = b0.items[b0.head];
    if (slots_[e.slot].next_free != kCancelled) return Time(e.time);
    ++b0.head;  // drop a cancelled entry and free its slot
    --entries_;
    free_slot_only(e.slot);
  }
  return Time::max();
}

bool EventQueue::step() {
  while (refill()) {
    Bucket& b0 = buckets_[0];
    const Entry e = b0.items[b0.head++];
    --entries_;
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
