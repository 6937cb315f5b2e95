// Linux md RAID0 (drivers/md/raid0.c) as block storage stacked over other block storage:
// the array's logical space is cut into chunks, and chunk c lives on member c mod N at
// member offset (c / N) x chunk. An I/O at logical offset o is split at chunk
// boundaries (md splits a bio that crosses one); each piece goes to its member at
// (c / N) x chunk + o mod chunk, the pieces run on the members at once, and the I/O
// completes when every piece has. A flush goes to every member and completes when all
// have. Limits: capacity N x the smallest member (each rounded down to whole chunks, as
// md's zones are), the largest member's logical block, one chunk per command (md's
// largest bio on one member), the members' queue depths summed.
//
// The array sits on no link: the data of each piece moves between its member and the
// I/O's far end (a GPU, host memory), along the route the caller's path would give that
// member, on that member's queues (the caller lends them through QueueRoutes::stacked,
// sim/core/block_storage.hpp: the interface could not say where a piece goes, since a
// route names one store; models/storage/stacked_store.hpp asks and keeps them).
//
// Not modelled: md's own CPU time per bio (raid0_make_request maps and splits in the
// submitter's context: a bio lookup and a split per chunk, small against the drives'
// ~10 us command overheads), members of unequal size beyond the smallest (md's extra
// zones), the block layer merging two adjacent pieces for one member, and cuFile's
// choice of staging per member (the array's route crosses no root complex, so
// gpu_direct DMAs every piece directly, across root complexes where a member is under
// another socket). A path that sets up queues of its own (gpu_initiated) lends no
// routes: the array refuses its I/Os.
#pragma once
#include <string>
#include <vector>

#include "models/storage/stacked_store.hpp"
#include "sim/core/stats.hpp"

namespace iowall {

// Where RAID0 puts logical byte `offset`: its member and the byte offset on that member.
struct Raid0Place {
  int member = 0;
  Bytes offset;
};
Raid0Place raid0_place(Bytes offset, Bytes chunk, int members);

class MdRaid0 final : public StackedStore {
public:
  MdRaid0(const Params& p, SimContext& ctx);

  IOWALL_PARAM(std::string, members, "",
               "the block storage devices striped over, comma-separated ids in order (at least 2): member i holds "
               "chunks i, i + N, i + 2N, ...",
               "mdadm(8): mdadm --create /dev/md0 --level=0 --raid-devices=N DEVICES...; drivers/md/raid0.c");
  IOWALL_PARAM(Bytes, chunk, "512 KiB",
               "chunk (stripe unit): consecutive logical bytes on one member; a multiple of the members' "
               "logical block",
               "mdadm(8) --chunk: default 512 KiB");

  void flush(Done done, SyncScope scope) override;
  void find_devices(const std::function<Device*(const std::string&)>& find) override;
  std::string pending_work() const override;

  const std::vector<BlockStorage*>& member_stores() const { return members_; }

private:
  void split(bool write, i64 at, i64 end, const Fanout& f, RouteMover& mover, Done done, const BlockIo& io) override;

  Counter pieces_, flushes_;
};

}  // namespace iowall
