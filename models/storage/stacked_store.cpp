#include "models/storage/stacked_store.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace iowall {

void StackedStore::start(bool write, Bytes size, const Route& given, RouteMover& mover, Done done, const BlockIo& io) {
  if (!io.queues.stacked)
    throw RunError(fmt::format("{} ({}): the I/O's caller lends no routes to the stores under it (a path that sets "
                               "up its own queues, such as gpu_initiated, cannot use one)",
                               name(), model()));
  ios_.add();
  if (size.n <= 0) {
    done();
    return;
  }
  const Fanout& f = fanout(given, io.queues, write);
  const i64 at = io.offset.n >= 0 ? io.offset.n : next_offset_;
  const i64 end = at + size.n;
  next_offset_ = end % limits().capacity.n;
  split(write, at, end, f, mover, done, io);
}

void StackedStore::send_piece(bool write, std::size_t m, Bytes size, Bytes offset, const Fanout& f, RouteMover& mover,
                              std::uint32_t id, const BlockIo& io) {
  BlockIo piece = io;
  piece.offset = offset;
  piece.queues = f.queues[m];
  if (write)
    members_[m]->write(size, *f.routes[m], mover, [this, id] { piece_done(id); }, piece);
  else
    members_[m]->read(size, *f.routes[m], mover, [this, id] { piece_done(id); }, piece);
}

const StackedStore::Fanout& StackedStore::fanout(const Route& given, const QueueRoutes& queues, bool write) {
  const PointerTriple key{&given, queues.to_queues, queues.stacked};
  if (key == last_key_) return fanouts_[last_fanout_];
  const auto [it, fresh] = fanout_of_.try_emplace(key, fanouts_.size());
  if (fresh) {
    Fanout& f = fanouts_.emplace_back();
    for (BlockStorage* s : members_) {
      f.routes.push_back(&queues.stacked->member_route(s->device(), given, write));
      f.queues.push_back(queues.stacked->member_queues(s->device(), queues));
    }
  }
  last_key_ = key;
  last_fanout_ = it->second;
  return fanouts_[last_fanout_];
}

}  // namespace iowall
