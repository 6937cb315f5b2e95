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
  if (!size.is_positive()) {
    done();
    return;
  }
  const Fanout& f = fanout(given, io.queues, write);
  if (write) {
    lender_ = io.queues.stacked;
    last_write_ = &f;
    mover_ = &mover;
  }
  const i64 at = io.offset.is_negative() ? next_offset_ : io.offset.count();
  const i64 end = at + size.count();
  next_offset_ = end % limits().capacity.count();
  split(write, at, end, f, mover, done, io);
}

void StackedStore::send_to_member(bool write, std::size_t m, Bytes size, Bytes offset, const Fanout& f,
                                  RouteMover& mover, Done then, const BlockIo& io) {
  BlockIo piece = io;
  piece.offset = offset;
  piece.queues = f.queues[m];
  if (write)
    members_[m]->write(size, *f.routes[m], mover, then, piece);
  else
    members_[m]->read(size, *f.routes[m], mover, then, piece);
}

void StackedStore::write_own(std::size_t m, Bytes size, Bytes offset, Done then) {
  BlockIo io;
  io.offset = offset;
  io.queues = last_write_->queues[m];
  members_[m]->write(size, lender_->memory_route(members_[m]->device(), true), *mover_, then, io);
}

BlockStorage& find_block_storage(const Device& self, const std::function<Device*(const std::string&)>& find,
                                 const char* key, const std::string& id) {
  const Params& p = self.params();
  if (id.empty()) p.fail(key, "names no block storage device");
  Device* d = find(id);
  if (!d) p.fail(key, fmt::format("no device \"{}\" in the topology", id));
  if (d == &self) p.fail(key, fmt::format("{} cannot sit on itself", id));
  BlockStorage* const under = d->as_block_storage();
  if (!under) p.fail(key, fmt::format("{} is a {}, not block storage (such as an nvme_ssd)", id, d->model()));
  if (!under->limits().capacity.is_positive())
    p.fail(key, fmt::format("{} has no capacity yet: declare a stacked store before {}", id, self.name()));
  return *under;
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
