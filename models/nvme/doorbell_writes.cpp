#include "models/nvme/doorbell_writes.hpp"

#include <algorithm>

namespace iowall {

namespace {
constexpr Bytes kCacheLine(64);
}

DoorbellWrites::DoorbellWrites(Component& owner, const DoorbellCosts& c) : c_(c) {
  auto& stats = owner.ctx().stats();
  const std::string p = owner.name() + "/nvme/";
  stats.add(p + "mmio_doorbell_writes", "writes", "doorbell writes to the controller's registers (MMIO)", mmio_writes_);
  stats.add(p + "shadow_doorbell_stores", "stores", "doorbell values stored to the shadow buffer (DBBUF)", shadow_stores_);
  stats.add(p + "shadow_line_transfers", "transfers",
            "shadow stores that first took the cache line from another queue's core (false sharing)", line_transfers_);
  stats.add(p + "doorbell_write_time", "ps", "submitter time spent writing doorbells (MMIO and shadow stores)", write_ps_);
}

Time DoorbellWrites::write_mmio(Time at) {
  mmio_writes_.add();
  write_ps_.add(static_cast<std::uint64_t>(c_.mmio.whole_ps()));
  return at + c_.mmio;
}

Time DoorbellWrites::store_shadow(int queue, bool cq_head, Time at) {
  const Bytes offset = c_.stride * (2 * static_cast<i64>(queue) + (cq_head ? 1 : 0));
  Line& line = lines_[offset / kCacheLine];
  const bool transfer = line.last_writer >= 0 && line.last_writer != queue;
  const Time cost = transfer ? c_.line_transfer : c_.shadow_store;
  const Time start = std::max(at, line.free_at);
  line.free_at = start + cost;
  line.last_writer = queue;
  shadow_stores_.add();
  if (transfer) line_transfers_.add();
  write_ps_.add(static_cast<std::uint64_t>((line.free_at - at).whole_ps()));
  return line.free_at;
}

Time DoorbellWrites::next_poll(Time t) const {
  if (!c_.poll_interval.is_positive()) return t;
  return round_up(t, c_.poll_interval);
}

}  // namespace iowall
