#include "models/storage/split_io_path.hpp"

#include <fmt/format.h>

#include "models/nvmeof/nvmeof_path.hpp"

namespace iowall::storage {
SplitIoPath::SplitIoPath(const Params& p, PathEnv& env, const std::string& drives, const char* drives_key,
                         const char* default_transport)
    : PathBase(env) {
  if (drives == "all") {
    drives_ = env.topology.block_storage();
  } else {
    for (const std::string& id : split_list(drives))
      drives_.push_back(&env.topology.block_storage(id, env.file, p.pointer_to(drives_key)));
  }
  if (drives_.empty()) p.fail(drives_key, "no drives: the topology has no block storage (nvme_ssd)");
  transport_ = nvmeof::make_transport(p, env, default_transport);
  tcp_ = nvmeof::TransportChoice(p, default_transport).transport == "tcp";
}

void SplitIoPath::expect(std::uint32_t id, int pieces) {
  if (pieces_left_.size() <= id) pieces_left_.resize(id + 1);
  pieces_left_[id] = pieces;
}

void SplitIoPath::start_piece(std::uint32_t id, std::size_t drive, Bytes offset, Bytes size, Done then,
                              ServerSide how) {
  const IoRequest& r = io(id).io;
  if (r.write && tcp_)
    throw InputError(env_.file, env_.pointer + "/transport",
                     "over tcp this path simulates reads only (the workload writes): use rdma for writes");
  transport_->submit({.size = size,
                      .offset = offset,
                      .write = r.write,
                      .storage = drives_[drive],
                      .target = r.target,
                      .thread = r.thread,
                      .cached = how.cached,
                      .server_local = how.server_local,
                      .shares_thread = how.shares_thread,
                      .server_syncs = how.syncs,
                      .connection = how.connection},
                     then);
}

void SplitIoPath::piece_done(std::uint32_t id) {
  if (last_piece_in(id)) finish(id);
}

Bytes SplitIoPath::on_drive(std::size_t drive, Bytes offset, Bytes align) const {
  const Bytes usable = align * (drives_[drive]->limits().capacity / align);
  return offset % usable;
}

}  // namespace iowall::storage
