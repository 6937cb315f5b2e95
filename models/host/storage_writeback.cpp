#include "models/host/storage_writeback.hpp"

#include <fmt/format.h>

#include "sim/core/device.hpp"

namespace iowall {

StorageWriteback::StorageWriteback(SimContext& ctx, BlockStorage& storage, const Route& to_storage, RouteMover& mover,
                                   const QueueRoutes& queues, Bandwidth flusher_rate, Time new_block_cost)
    : Component(ctx, storage.device().name() + "/writeback"),
      storage_(storage),
      route_(to_storage),
      mover_(mover),
      queues_(queues),
      rate_(flusher_rate),
      new_block_cost_(new_block_cost),
      flusher_(std::make_unique<Server>(*this, "flusher")) {
  register_stat("requests", "requests", "writeback requests sent to the store", requests_done_);
  flusher_->set_carries("writeback");
}

void StorageWriteback::write_back(Bytes bytes, Done done) {
  const std::uint32_t id = requests_.acquire({bytes, next_offset_, done});
  next_offset_ = (next_offset_ + bytes) % std::max(Bytes(1), storage_.limits().capacity);
  // The flusher prepares the request (one thread: requests queue for it), new files' pages
  // first allocated, then the store takes it; the flusher goes on with the next meanwhile.
  const Bytes fresh = std::min(bytes, new_pending_);
  new_pending_ -= fresh;
  constexpr Bytes kPage(4096);
  const Time pass = transfer_time(bytes, rate_) + new_block_cost_ * ceil_div(fresh, kPage);
  flusher_->submit(pass, Time(0), {}, [this, id] { submit(id); });
}

void StorageWriteback::submit(std::uint32_t id) {
  const Request& r = requests_[id];
  const BlockIo io{r.offset, -1, queues_};
  storage_.write(r.bytes, route_, mover_, [this, id] {
    const Done d = requests_[id].done;
    requests_.release(id);
    requests_done_.add();
    d();
  }, io);
}

std::string StorageWriteback::pending_work() const {
  return requests_.live() ? fmt::format("{} writeback requests in flight", requests_.live()) : std::string{};
}

}  // namespace iowall
