// The write stages of `iowall calibrate`: each stage takes the write groups of one
// mechanism a write crosses and fits that mechanism's parameters into the profile, with
// the measurement files they came from. They run in order, each on what the ones before
// it fitted:
//   flush      fsyncs of files written with O_DIRECT (nothing dirty in the page cache):
//              their median latency is the drive's flush_cost
//   drive      cpu_only write throughput until durable: the lumped drive's write_latency
//              and write_bandwidth, Levenberg-Marquardt on log throughput of the closed
//              form below (max_iops and the CPU cost per I/O come from the read fits),
//              once per write service (pipelined, serial), keeping the one that fits best
//   buffered   cpu_cached writes at QD1, their write phase: time per write() = fixed +
//              size / bandwidth (copy into the page cache, page allocation, dirtying)
//   io_wq      cpu_cached io_uring writes with several in flight: the part of that fixed
//              time io_uring's io-wq worker runs one write of a file at a time; the rest is
//              the handoff to and from the worker
//   writeback  fsyncs of buffered writes: the flusher's rate (the path's flusher_bandwidth)
//              given the drive, with the block queue's max_sectors_kb as the writeback
//              request and the kernel's vm.dirty_* settings as the run recorded them
// The closed forms are the mean-value times of the simulator's mechanisms
// (models/ssd/nvme_ssd.cpp lumped writes, models/host/dirty_pages.cpp and
// storage_writeback.cpp); tests hold them to the simulator.
#pragma once
#include <memory>
#include <vector>

#include "measure/calibrate.hpp"

namespace iowall::calib {

// The lumped drive's write path in SI units. Each command (a write is ceil(size / mdts)
// of them) is processed by the controller (1 / max_iops), crosses the link, passes the
// write data path (its bytes / write bandwidth) and completes write_latency later; the
// three are pipelined stages (the nvme_ssd's write_service "pipelined"), or, serial, the
// processing and the data path are one stage: 1 / max_iops + bytes / write bandwidth
// per command, one command after another (write_service "serial").
struct DriveWriteInputs {
  double max_iops = 0, mdts_bytes = 131072;
  double latency_s = 0, bandwidth_Bps = 0;
  bool serial = false;
  double link_Bps = 0;  // 0: the link never limits
  double flush_s = 0;   // an NVMe Flush (fsync, O_DSYNC)
};
// One write of `size` alone at the drive, from its submission to its completion.
double drive_write_time(const DriveWriteInputs& d, double size);
// Bytes per second of `size` writes kept in flight: the slowest stage's rate.
double drive_write_ceiling(const DriveWriteInputs& d, double size);
// Throughput until durable of a group of O_DIRECT writes: its concurrency of writes, each
// `cpu_s` of its thread's CPU plus the drive's time (plus a flush with O_DSYNC), capped by
// the drive's ceiling and the threads' CPU; then the syncs its durability asks for.
double direct_write_throughput(const DriveWriteInputs& d, const PointGroup& g, double cpu_s);
// The groups the drive's write fit takes: O_DIRECT writes (cpu_only) not made durable one by
// one (O_DSYNC, whose time is as much the flush's as the drive's).
bool drive_write_point(const PointGroup& g);
// An fsync of `dirty` bytes of page-cache data: the flusher prepares requests of
// `request` bytes at `flusher_Bps`, the drive writes up to `depth` of them at a time, then
// the drive flushes: a two-stage pipeline, then the flush.
double writeback_sync_time(const DriveWriteInputs& d, double dirty, double request, int depth, double flusher_Bps);
// The bytes dirty when each of a group's fsyncs is called (all threads write one file):
// everything written (fsync_end), or a sync's share (fsync_each); 0 without syncs.
double dirty_per_sync(const PointGroup& g);

// The drive's link as writes cross it in the calibrated topology (apply_profile): the
// fitted read bandwidth where the read service needs it to time a lone read (overlapped,
// serial); left as the base topology has it, taken as never limiting (0), where the
// batched service's pass already holds every read until its data has moved.
double write_link_Bps(const Profile& p);
// The drive's write inputs of a profile with its storage and drive-write fits.
DriveWriteInputs drive_write_inputs(const Profile& p);

// The writeback request and depth the page cache uses when a profile does not say
// (the cpu_cached path's defaults).
inline constexpr double kDefaultWritebackRequest = 1048576;
inline constexpr int kWritebackDepth = 32;

class WriteStage {
public:
  virtual ~WriteStage() = default;
  virtual const char* name() const = 0;
  // Whether this stage fits from `g` (a write group the subset selected).
  virtual bool takes(const PointGroup& g) const = 0;
  // Fits from the groups it takes (possibly none: it then says why in the notes).
  virtual void fit(const std::vector<const PointGroup*>& points, Profile& prof) const = 0;
};

// The stages, in the order they run.
const std::vector<std::unique_ptr<WriteStage>>& write_stages();
// Runs every stage on the write groups the subset selects; nothing at all without any.
void fit_writes(const std::vector<PointGroup>& groups, const Subset& subset, Profile& prof);

namespace stages {
// The stages' implementations (measure/calibrate_writes.cpp, calibrate_writeback.cpp).
std::unique_ptr<WriteStage> flush_stage();
std::unique_ptr<WriteStage> drive_write_stage();
std::unique_ptr<WriteStage> buffered_write_stage();
std::unique_ptr<WriteStage> io_wq_stage();
std::unique_ptr<WriteStage> writeback_stage();
}  // namespace stages

}  // namespace iowall::calib
