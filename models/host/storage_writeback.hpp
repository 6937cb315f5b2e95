// Writeback of one block store's dirty page-cache data: the kernel's flusher thread for
// that device (one per backing device, bdi_writeback) walks the dirty pages, maps their
// blocks and builds the bios at its own rate, then each request goes to the store as a
// write from host memory along the route host memory -> drive, on the drive's queues in
// the host memory nearest to it. Pages of a new file (blocks not yet allocated: ext4's
// delayed allocation, on a virtual disk also blocks its image may never have held) cost
// the pass `new_block_cost` more per 4 KiB page, taken in the order they were dirtied. A
// flush of the file is the store's flush. This is the WritebackSink that DirtyPages
// (models/host/dirty_pages.hpp) writes back through.
#pragma once
#include <memory>
#include <string>

#include "models/host/dirty_pages.hpp"
#include "sim/core/block_storage.hpp"
#include "sim/core/component.hpp"
#include "sim/core/route.hpp"
#include "sim/core/server.hpp"
#include "sim/core/slot_pool.hpp"

namespace iowall {

class StorageWriteback final : public Component, public WritebackSink {
public:
  // `to_storage`: host memory -> the drive; `queues`: where the drive's queues live.
  // `flusher_rate`: bytes per second the flusher thread prepares; `new_block_cost`: its
  // extra time per 4 KiB page of a new file.
  StorageWriteback(SimContext& ctx, BlockStorage& storage, const Route& to_storage, RouteMover& mover,
                   const QueueRoutes& queues, Bandwidth flusher_rate, Time new_block_cost);

  // `bytes` just dirtied belong to a new file: their writeback pays new_block_cost.
  void dirtied_new(Bytes bytes) { new_pending_ += bytes; }
  void write_back(Bytes bytes, Done done) override;
  void flush(Done done, SyncScope scope) override { storage_.flush(done, scope); }
  BlockStorage& storage() const { return storage_; }
  std::string pending_work() const override;

private:
  void submit(std::uint32_t id);

  BlockStorage& storage_;
  const Route& route_;
  RouteMover& mover_;
  QueueRoutes queues_;
  Bandwidth rate_;
  Time new_block_cost_;
  Bytes new_pending_;  // dirtied bytes of new files not yet written back
  std::unique_ptr<Server> flusher_;
  struct Request {
    Bytes bytes, offset;
    Done done;
  };
  SlotPool<Request> requests_;
  Bytes next_offset_;  // the file is laid out as written
  Counter requests_done_;
};

}  // namespace iowall
