#include "models/storage/md_raid0.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/config/registry.hpp"
#include "sim/core/error.hpp"

namespace iowall {

Raid0Place raid0_place(Bytes offset, Bytes chunk, int members) {
  // drivers/md/raid0.c, one zone: chunk c = offset / chunk sits on member c mod N, as
  // that member's chunk c / N.
  const i64 c = offset / chunk;
  return {static_cast<int>(c % members), chunk * (c / members) + offset % chunk};
}

MdRaid0::MdRaid0(const Params& p, SimContext& ctx) : StackedStore(p, ctx) {
  register_stat("ios", "I/Os", "reads and writes the array took", ios_);
  register_stat("pieces", "commands", "pieces sent to members (an I/O splits at chunk boundaries)", pieces_);
  register_stat("flushes", "flushes", "flushes the array sent to every member", flushes_);
}

void MdRaid0::find_devices(const std::function<Device*(const std::string&)>& find) {
  const Params& p = params();
  const std::vector<std::string> ids = split_list(members);
  if (ids.size() < 2)
    p.fail("members", fmt::format("RAID0 stripes over at least 2 block storage devices; \"{}\" names {}", members,
                                  ids.size()));
  for (const std::string& id : ids) {
    if (find(id) == this) p.fail("members", fmt::format("{} cannot be a member of itself", id));
    BlockStorage* s = &find_block_storage(*this, find, "members", id);
    if (std::find(members_.begin(), members_.end(), s) != members_.end())
      p.fail("members", fmt::format("{} is named twice", id));
    members_.push_back(s);
  }
  BlockLimits l;
  Bytes smallest = members_[0]->limits().capacity, lba;
  i64 depth = 0;
  for (const BlockStorage* s : members_) {
    smallest = std::min(smallest, s->limits().capacity);
    lba = std::max(lba, s->limits().lba_size);
    depth += s->limits().queue_depth;
  }
  if (!chunk.is_multiple_of(lba))
    p.fail("chunk", fmt::format("{} is not a multiple of the members' logical block ({})", to_string(chunk),
                                to_string(lba)));
  // md uses whole chunks of each member, as many as the smallest member holds.
  const Bytes per_member = round_down(smallest, chunk);
  if (per_member.is_zero())
    p.fail("chunk", fmt::format("{} is larger than the smallest member ({})", to_string(chunk), to_string(smallest)));
  l.capacity = per_member * static_cast<i64>(members_.size());
  l.lba_size = lba;
  l.max_transfer = chunk;
  l.queue_depth = depth;
  set_limits(l);
  set_place(members_[0]->place());
}

void MdRaid0::split(bool write, i64 at, i64 end, const Fanout& f, RouteMover& mover, Done done, const BlockIo& io) {
  const i64 c = chunk.count();
  const std::uint32_t id = expect(done, (end - 1) / c - at / c + 1);
  const int n = static_cast<int>(members_.size());
  while (at < end) {
    const i64 piece_end = std::min(end, (at / c + 1) * c);
    const Raid0Place where = raid0_place(Bytes(at), chunk, n);
    pieces_.add();
    send_piece(write, static_cast<std::size_t>(where.member), Bytes(piece_end - at), where.offset, f, mover, id, io);
    at = piece_end;
  }
}

void MdRaid0::flush(Done done, SyncScope scope) {
  flushes_.add();
  const std::uint32_t id = expect(done, static_cast<i64>(members_.size()));
  // A member may acknowledge at once (nothing volatile): the last one then completes it.
  for (BlockStorage* s : members_) s->flush([this, id] { piece_done(id); }, scope);
}

std::string MdRaid0::pending_work() const {
  if (in_flight() == 0) return {};
  return fmt::format("{} I/O(s) or flush(es) waiting for their members", in_flight());
}

IOWALL_REGISTER_DEVICE(MdRaid0, "md_raid0", "Linux md RAID0: block storage striped in chunks over member block storage");

}  // namespace iowall
