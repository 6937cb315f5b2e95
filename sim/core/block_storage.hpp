// Block storage, the interface every storage layer implements: a read moves `size`
// bytes out of the store along a route the caller gives (into host memory, or
// peer-to-peer into a GPU), a write moves them from there into the store, and `done`
// runs when the host has reaped the completion. Hints say where the bytes sit (offset),
// which submission queue the I/O takes, and where that queue pair lives (host memory
// near the device, or a GPU's memory for GPU-initiated I/O). Limits (capacity, logical
// block size, largest transfer per command, I/Os one queue holds) are data the store
// sets once, so a path reads them without a call. A device says it is block storage by
// Device::as_block_storage(); workloads and paths see only this interface (an NVMe
// drive, models/ssd/nvme_ssd.hpp, implements it). A flush makes every write completed
// before it durable (NVMe Flush, a SCSI SYNCHRONIZE CACHE): a store with nothing volatile
// acknowledges it at once. A flush says its scope: the data written so far and what
// finding it needs (fdatasync, O_DSYNC: block allocations, a new file size), or that and the
// file's other metadata too (fsync: timestamps); a device has no metadata and flushes its
// cache for either, a file system (models/storage/ext4_fs.hpp) commits its journal when the
// scope asks for a change it holds.
// A store stacked over others (md RAID0 over drives, models/storage/md_raid0.hpp) sits
// on no link: its route from the caller has no hops, only its two ends, and it sends
// each piece to a member along the route between that member and the route's far end,
// on the member's queues. Only the caller knows how it routes (its host memory, its
// endpoint hops), so it lends the store a StackedRoutes through QueueRoutes::stacked;
// a stacked store asks it once per route and member and keeps the answers.
#pragma once
#include "sim/core/inline_function.hpp"
#include "sim/core/route.hpp"

namespace iowall {

class Device;
class Server;

// How a polling host finds its command's completion among the completion-queue
// entries (posted in completion order, each with its command id and a phase tag).
//   reap_all: one poller consumes every new entry from the head (SPDK, io_uring IOPOLL):
//             O(1) per entry.
//   scan:     each waiting GPU thread looks for its own command id from the head: the
//             i-th new entry is found after reading i + 1 entries (O(N) per lookup).
//   in_order: entries are posted in submission order, so a thread knows its slot (O(1));
//             a command that finished early waits for the ones before it.
enum class CqLookup { reap_all, scan, in_order };

struct QueueRoutes;

// What a flush makes durable (see the header comment): data (fdatasync, O_DSYNC) or file
// (fsync).
enum class SyncScope { data, file };

// What a stacked store asks of its caller for one member (see the header comment).
class StackedRoutes {
public:
  // The route the caller would give `member` for an I/O it gave the stacked store along
  // `given`: member -> the far end of `given` for a read, the far end -> member for a write.
  virtual const Route& member_route(const Device& member, const Route& given, bool write) = 0;
  // The queues the caller would give `member`, for an I/O it gave on `given`.
  virtual QueueRoutes member_queues(Device& member, const QueueRoutes& given) = 0;
  // The route between `member` and the host memory nearest it (a file system's own blocks,
  // its journal, come from there): memory -> member for a write.
  virtual const Route& memory_route(const Device& member, bool write) = 0;

protected:
  ~StackedRoutes() = default;
};

// Where an I/O's submission and completion queues live, seen from the store: routes
// to and from queue memory and the route doorbells take from the host. Null routes
// cost nothing (queue traffic unmodelled).
struct QueueRoutes {
  const Route* to_queues = nullptr;    // store -> queue memory: completion entries, MSI-X
  const Route* from_queues = nullptr;  // queue memory -> store: submission fetches, doorbells
  RouteMover* mover = nullptr;
  // The submitter asks to reap its completions by polling (io_uring IOPOLL, SPDK, the
  // threads of a GPU that owns the queues); the store's host driver decides. A warp
  // rings once for its batch (doorbell_batch; 0: the store's setting).
  bool submitter_polls = false;
  int doorbell_batch = 0;
  // The cores of the CPU that writes the doorbells (host-driven queues): their time on
  // doorbell writes counts as CPU busy. Null for GPU-owned queues.
  Server* host_cores = nullptr;
  CqLookup cq_lookup = CqLookup::reap_all;  // polled queues only
  Time cq_check_cost;                       // reading one completion entry (scan)
  // Time the submitter spends on a command before its submission entry is in place (a
  // GPU thread allocating its command id): the doorbell for it goes no earlier.
  Time submit_delay;
  // The submitter's routes for a stacked store's members; null: the caller cannot route
  // them (a stacked store then refuses the I/O).
  StackedRoutes* stacked = nullptr;
};

// Optional details of one I/O. Without them the store spreads I/Os over its queues
// round-robin, places data by a running offset, and leaves queue traffic unmodelled.
struct BlockIo {
  Bytes offset{-1};     // logical byte offset (decides where the data sits); -1: unknown
  int queue = -1;       // submission queue; -1: round-robin over the host's queues
  QueueRoutes queues;   // where the queue pair lives
  // The host buffer's physically contiguous run: each is one DMA segment of the request
  // (a virtual disk's device walks them one by one). 0: the I/O is one segment.
  Bytes segment{0};
  // The host memory the issuer's data lands in, cycled over its I/Os: a program that
  // reuses its buffers, queue depth x I/O size over its threads. 0: memory not used lately
  // (the page cache's pages, a fresh buffer, or not known). A virtual disk's host copies
  // into memory its CPU cache still holds faster than into memory it must fetch first.
  Bytes footprint{0};
};

struct BlockLimits {
  Bytes capacity;          // usable bytes
  Bytes lba_size;          // logical block: I/O sizes are multiples of it
  Bytes max_transfer;      // the largest command; larger I/Os split into several
  i64 queue_depth = 1;     // I/Os one queue holds in flight
};

class BlockStorage {
public:
  using Done = InlineFunction<void()>;

  // Reads `size` and moves it along `to`; `done` runs when the host has reaped the last
  // command's completion.
  virtual void read(Bytes size, const Route& to, RouteMover& mover, Done done, const BlockIo& io = {}) = 0;
  // Moves `size` from the host along `from`, then commits it.
  virtual void write(Bytes size, const Route& from, RouteMover& mover, Done done, const BlockIo& io = {}) = 0;
  // Makes every write completed so far durable, with the metadata `scope` asks for; `done`
  // then. The default: nothing is volatile, so the flush is done at once (`done` runs
  // before flush returns).
  virtual void flush(Done done, SyncScope scope) {
    (void)scope;
    done();
  }

  // The topology device the data enters and leaves by (routes start and end there).
  Device& device() const { return device_; }
  const BlockLimits& limits() const { return limits_; }
  // Where the store sits in the topology for what is near it (host memory, a CPU): its
  // own device, or for a stacked store its first member's place.
  const Device& place() const { return place_ ? *place_ : static_cast<const Device&>(device_); }
  bool stacked() const { return place_ != nullptr; }
  // The stores reached only through this one (a virtual disk's backing store: a VM's
  // programs see the virtual disk, never the drive under it). A workload's "local", "all"
  // and "paired" take this store in their place.
  virtual std::vector<const BlockStorage*> fronted() const { return {}; }

protected:
  explicit BlockStorage(Device& self) : device_(self) {}
  ~BlockStorage() = default;
  void set_limits(const BlockLimits& l) { limits_ = l; }
  void set_place(const Device& member) { place_ = &member; }

private:
  Device& device_;
  BlockLimits limits_;
  const Device* place_ = nullptr;
};

}  // namespace iowall
