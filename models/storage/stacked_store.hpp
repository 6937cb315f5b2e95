// What every block store stacked over others shares (md RAID0, a file system): it sits on
// no link and its I/Os go to its members, the stores under it. A read or write:
//   - is refused when its caller lends no routes to the members (QueueRoutes::stacked);
//   - starts at its offset hint, or where the last I/O without one ended;
//   - takes, for each member, the route and queues the caller would give that member for
//     this I/O's route: asked of the caller once per route and queue setup and kept (the
//     lender's routes live as long as the simulation), so an I/O asks nothing again;
//   - is cut into pieces by the store (split), each sent to one member at a member offset,
//     and completes when its last piece does. A piece count is kept per I/O (or flush) in
//     a slot pool, so an I/O allocates nothing.
#pragma once
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/core/block_storage.hpp"
#include "sim/core/device.hpp"
#include "sim/core/pointer_triple.hpp"
#include "sim/core/slot_pool.hpp"
#include "sim/core/stats.hpp"

namespace iowall {

// The block storage device that parameter `key` of `self` names (`id`): present, not
// `self`, block storage, its capacity set (declared earlier); InputError otherwise.
BlockStorage& find_block_storage(const Device& self, const std::function<Device*(const std::string&)>& find,
                                 const char* key, const std::string& id);

class StackedStore : public Device, public BlockStorage {
public:
  using Done = BlockStorage::Done;
  StackedStore(const Params& p, SimContext& ctx) : Device(p, ctx), BlockStorage(static_cast<Device&>(*this)) {}

  void read(Bytes size, const Route& to, RouteMover& mover, Done done, const BlockIo& io = {}) final {
    start(false, size, to, mover, done, io);
  }
  void write(Bytes size, const Route& from, RouteMover& mover, Done done, const BlockIo& io = {}) final {
    start(true, size, from, mover, done, io);
  }
  BlockStorage* as_block_storage() final { return this; }

protected:
  // The members' routes and queues for one route and queue setup of the caller.
  struct Fanout {
    std::vector<const Route*> routes;
    std::vector<QueueRoutes> queues;
  };
  // One I/O of the store's bytes [at, end), its size positive: the store cuts it into
  // pieces (each sent with send_piece under one expect id) and may note what it changes.
  virtual void split(bool write, i64 at, i64 end, const Fanout& f, RouteMover& mover, Done done,
                     const BlockIo& io) = 0;
  // Piece `size` of I/O `id` to member `m` at its byte `offset`, ending in piece_done(id).
  void send_piece(bool write, std::size_t m, Bytes size, Bytes offset, const Fanout& f, RouteMover& mover,
                  std::uint32_t id, const BlockIo& io) {
    send_to_member(write, m, size, offset, f, mover, [this, id] { piece_done(id); }, io);
  }
  // The same, ending in `then`.
  void send_to_member(bool write, std::size_t m, Bytes size, Bytes offset, const Fanout& f, RouteMover& mover,
                      Done then, const BlockIo& io);
  // A store over one other (a file system, a virtual disk): the block storage device its
  // parameter `key` names (`id`), found and checked (find_block_storage), as its only member.
  BlockStorage& find_single_member(const std::function<Device*(const std::string&)>& find, const char* key,
                                   const std::string& id) {
    members_.assign(1, &find_block_storage(*this, find, key, id));
    return *members_.front();
  }
  // The store's own bytes (a journal's blocks, a host's write-back): `size` at member `m`'s
  // byte `offset`, from the host memory nearest that member, on the queues and routes the
  // latest write's caller lent; only once a write has come (wrote()).
  bool wrote() const { return last_write_ != nullptr; }
  void write_own(std::size_t m, Bytes size, Bytes offset, Done then);
  // An I/O or flush of `pieces` pieces; each ends with piece_done(id), the last runs `done`.
  std::uint32_t expect(Done done, i64 pieces) { return pending_.acquire({done, pieces}); }
  void piece_done(std::uint32_t id) {
    if (--pending_[id].left > 0) return;
    const Done done = pending_[id].done;
    pending_.release(id);
    done();
  }
  std::size_t in_flight() const { return pending_.live(); }

  std::vector<BlockStorage*> members_;  // set by the store's find_devices
  Counter ios_;                         // reads and writes taken (the store registers it)

private:
  void start(bool write, Bytes size, const Route& given, RouteMover& mover, Done done, const BlockIo& io);
  const Fanout& fanout(const Route& given, const QueueRoutes& queues, bool write);
  struct Pending {
    Done done;
    i64 left = 0;
  };
  SlotPool<Pending> pending_;
  // The latest write's caller: its lent routes, its queues for the members, its mover.
  StackedRoutes* lender_ = nullptr;
  const Fanout* last_write_ = nullptr;
  RouteMover* mover_ = nullptr;
  i64 next_offset_ = 0;  // where an I/O without an offset goes: after the last one
  // By the caller's route, its queues' route and the lender.
  std::unordered_map<PointerTriple, std::size_t, HashPointers> fanout_of_;
  std::deque<Fanout> fanouts_;  // a deque: a Fanout stays put while an I/O issues its pieces
  PointerTriple last_key_{nullptr, nullptr, nullptr};
  std::size_t last_fanout_ = 0;
};

}  // namespace iowall
