// What every block store stacked over others shares (md RAID0, a file system): it sits on
// no link, takes reads and writes as one submit, refuses an I/O whose caller lends no
// routes to the stores under it, and completes an I/O (or a flush) when its last piece
// does. A piece count is kept per I/O in a slot pool, so an I/O allocates nothing.
#pragma once
#include <string>

#include <fmt/format.h>

#include "sim/core/block_storage.hpp"
#include "sim/core/device.hpp"
#include "sim/core/error.hpp"
#include "sim/core/slot_pool.hpp"

namespace iowall {

class StackedStore : public Device, public BlockStorage {
public:
  using Done = BlockStorage::Done;
  StackedStore(const Params& p, SimContext& ctx) : Device(p, ctx), BlockStorage(static_cast<Device&>(*this)) {}

  void read(Bytes size, const Route& to, RouteMover& mover, Done done, const BlockIo& io = {}) final {
    submit(false, size, to, mover, done, io);
  }
  void write(Bytes size, const Route& from, RouteMover& mover, Done done, const BlockIo& io = {}) final {
    submit(true, size, from, mover, done, io);
  }
  BlockStorage* as_block_storage() final { return this; }

protected:
  // The store's own I/O: its pieces go to the stores under it, each ending in piece_done.
  virtual void submit(bool write, Bytes size, const Route& given, RouteMover& mover, Done done, const BlockIo& io) = 0;
  // RunError unless the caller lends routes for the stores under this one (`what`: the
  // kind of store, for the message).
  void require_lender(const BlockIo& io, const char* what) const {
    if (!io.queues.stacked)
      throw RunError(fmt::format("{} ({}): the I/O's caller lends no routes to the stores under it (a path that sets "
                                 "up its own queues, such as gpu_initiated, cannot use one)",
                                 name(), what));
  }
  // An I/O or flush of `pieces` pieces; each ends with piece_done(id), the last runs `done`.
  std::uint32_t expect(Done done, i64 pieces) { return pending_.acquire({done, pieces}); }
  void piece_done(std::uint32_t id) {
    if (--pending_[id].left > 0) return;
    const Done done = pending_[id].done;
    pending_.release(id);
    done();
  }
  std::size_t in_flight() const { return pending_.live(); }

private:
  struct Pending {
    Done done;
    i64 left = 0;
  };
  SlotPool<Pending> pending_;
};

}  // namespace iowall
