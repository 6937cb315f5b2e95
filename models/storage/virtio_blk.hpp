// A virtual machine's virtio block device (virtio 1.2, 5.2) as block storage stacked over
// the host store that backs it (a drive, an md array, a file system holding the image).
//
// The guest's driver puts each request (at most max_request bytes: the block layer splits
// larger I/Os) on the virtqueue and notifies the device; the notification is a VM exit
// that wakes the host's device thread, and the device asks for one only while its thread
// waits for work (VIRTIO_RING_F_EVENT_IDX: a busy thread finds new requests on the ring by
// itself). The device thread takes requests in ring order, spends request_cost on each
// (parse the descriptors, issue the host call, post the used ring) and segment_cost on each
// data segment past the first (a descriptor per physically contiguous run of the guest's
// buffer, each mapped and handed to the host on its own: a 1 MiB read into scattered 4 KiB
// pages is 256 of them), and serves it by its emulation:
//   sync:  blocking host calls (pread/pwrite/fsync): the thread holds each request until
//          its host call returns, so requests are served one at a time whatever the
//          guest's queue depth (Firecracker's default Sync engine, QEMU without aio);
//   async: the host calls go out through io_uring and the thread goes on to the next
//          request, async_depth of them in flight (Firecracker's Async engine, QEMU
//          aio=io_uring or native).
// The guest's block layer sends no request of more than max_segments segments (the device's
// seg_max): an I/O into scattered pages splits into more requests than max_request alone
// would make.
// A completion reaches the guest as an interrupt (irqfd, then the guest's handler),
// interrupt_latency after the device signals it, which it does by `signal`:
//   per_request: as each host call returns (QEMU, which completes each request by itself);
//   per_pass:    once per pass over the ring, as Firecracker's device does: its sync thread
//                serves every request it finds on the ring, new ones included, and only when
//                the ring is empty advances the used ring and interrupts the guest, so all the
//                requests of a pass complete together (a reader's readahead windows sent
//                while the thread works come back at once, and the disk waits for the reader's
//                next window). The async engine's completions are signalled per batch of host
//                completions; the model signals each as it comes.
//
// The device's copy of a read's data into guest memory runs at the backing store's rate while
// the memory it lands in is in the host CPU's cache, and slower where the host must fetch
// the lines first (copy_cache, cold_copy_bandwidth): an issuer reusing a few MiB of buffers
// reads faster than one cycling through more, and a page-cache read (fresh pages) slowest.
//
// The host's cache mode decides what a write and a flush are:
//   none:      the image is opened O_DIRECT: a write goes to the backing store, a flush is
//              the host's fdatasync (host_flush_cost) and the backing store's flush (QEMU
//              cache=none; a backing store with nothing volatile makes it cheap).
//   writeback: a write is copied into the host's page cache by the device thread (at
//              host_copy_bandwidth) and completes; the backing store sees it only at the
//              guest's flush, which makes the host write back every dirty byte and then
//              flush the store (QEMU cache=writeback, Firecracker cache_type Writeback).
//   unsafe:    as writeback, but a flush is acknowledged at once and nothing is written
//              back: the data never becomes durable (QEMU cache=unsafe; Firecracker's
//              default cache_type Unsafe).
// A guest sees a volatile write cache in every mode (queue/write_cache "write back"), so
// it sends flushes in all three.
//
// In writeback and unsafe modes a read of bytes the host still holds dirty is the thread's
// copy out of host memory; other reads go to the backing store.
// Not modelled: the host's own background writeback and dirty limits (in writeback mode
// every dirty byte waits for the guest's flush), reads of clean data the host's page cache
// holds (they go to the backing store), interrupt coalescing, and more than one virtqueue
// (multi-queue virtio-blk serves each queue with its own thread or io_uring).
#pragma once
#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "models/storage/byte_ranges.hpp"
#include "models/storage/stacked_store.hpp"
#include "sim/core/slot_pool.hpp"
#include "sim/core/stats.hpp"

namespace iowall {

class VirtioBlk final : public StackedStore {
public:
  VirtioBlk(const Params& p, SimContext& ctx);

  IOWALL_PARAM(std::string, device, "",
               "the host's block storage behind the virtual disk (a drive, an md array, a file system holding the "
               "image)",
               "QEMU -drive file=...; Firecracker PUT /drives path_on_host");
  IOWALL_PARAM_CHOICE(emulation, "sync", (std::vector<std::string>{"sync", "async"}),
                      "how the device thread issues host I/O: sync (blocking calls, one request at a time) or "
                      "async (io_uring, async_depth requests in flight)",
                      "Firecracker docs/api_requests/block-io-engine.md (io_engine Sync, the default, or Async); "
                      "QEMU -drive aio=threads|native|io_uring");
  IOWALL_PARAM_INT(async_depth, 128, 1, 65536, "async: host calls the device thread keeps in flight",
                   "assumption: an io_uring submission queue of 128 entries");
  IOWALL_PARAM_CHOICE(host_cache, "none", (std::vector<std::string>{"none", "writeback", "unsafe"}),
                      "the host's cache mode for the image: none (O_DIRECT, a flush is the host's fdatasync), "
                      "writeback (writes land in the host's page cache and are written back at a flush) or unsafe "
                      "(as writeback, flushes acknowledged and ignored)",
                      "QEMU -drive cache=none|writeback|unsafe; Firecracker docs/api_requests/block-caching.md "
                      "(cache_type Unsafe, the default, or Writeback)");
  IOWALL_PARAM(Time, request_cost, "3 us",
               "device thread CPU time per request: descriptors parsed, the host call issued, the used ring "
               "updated",
               "assumption: a few microseconds of a user-space VMM's request handling; calibrate");
  IOWALL_PARAM(Time, notify_latency, "5 us",
               "from the guest's notification to the waiting device thread running: the VM exit on the queue's "
               "notify register, the ioeventfd signal and the thread's wake-up",
               "assumption: KVM MMIO/PIO exit and eventfd wake-up, a few microseconds");
  IOWALL_PARAM(Time, interrupt_latency, "3 us",
               "from the host call's return to the guest's completion handler: irqfd injection and the guest's "
               "interrupt",
               "assumption: KVM irqfd with posted interrupts, a few microseconds");
  IOWALL_PARAM(Bandwidth, host_copy_bandwidth, "6 GB/s",
               "writeback and unsafe: the device thread's copy of a write into the host's page cache",
               "assumption: one core's buffered write() into the page cache (about 4-8 GB/s)");
  IOWALL_PARAM(Time, host_flush_cost, "10 us",
               "none and writeback: the host's fdatasync of the image besides the backing store's own flush",
               "assumption: an fdatasync system call on a file whose blocks are allocated");
  IOWALL_PARAM(Bytes, max_request, "4 MiB",
               "the largest request the guest puts on the virtqueue (its block queue's max_sectors_kb); larger "
               "I/Os are split",
               "measured: /sys/block/vda/queue/max_sectors_kb 4096 on the GPU machine "
               "(reports/calibration/gpu-machine/virtio-flush/flush.json)");
  IOWALL_PARAM_CHOICE(signal, "per_request", (std::vector<std::string>{"per_request", "per_pass"}),
                      "when the device interrupts the guest: per_request (as each host call returns) or per_pass "
                      "(once the sync thread has emptied the ring: every request of the pass completes together)",
                      "QEMU virtio-blk completes each request on its own; Firecracker "
                      "src/vmm/src/devices/virtio/block/virtio/device.rs process_queue: the used ring advanced and "
                      "the interrupt triggered after the loop over the available ring; seen on the GPU VMs: 4 reads "
                      "in flight drop to 0 at once (reports/calibration/gpu-machine/readtrace-h200-vm)");
  IOWALL_PARAM(Time, segment_cost, "2.4 us",
               "device thread time per data segment of a request past the first: its descriptor walked, the guest "
               "memory it names mapped and handed to the host call",
               "measured: O_DIRECT reads at QD 1 into 4 KiB-page buffers against 2 MiB-page ones, 128 KiB to 4 MiB, "
               "3 rounds, on a 2-vCPU Firecracker guest: 2.4 us per extra segment "
               "(reports/calibration/cpu-machine/buffer-pages, scripts/fit-segment-cost.py)");
  IOWALL_PARAM(Bytes, copy_cache, "0 B",
               "guest memory the host's CPU cache keeps for the device's copies into it: a read whose issuer cycles "
               "its I/Os through no more memory (BlockIo::footprint) lands in cached lines; from there to twice it a "
               "growing share lands in lines fetched first, linearly (the host's last-level cache replaces "
               "adaptively, not in strict LRU order), beyond twice it and into fresh memory (the page cache's "
               "pages) all of it; 0 B: not modelled (every read lands as the backing store's rate says)",
               "measured on a GPU VM: O_DIRECT reads ran at 2.21-2.25 GB/s into 1-4 MiB of buffers, 2.05-2.10 into "
               "8, 1.81-1.91 into 12, 1.73-1.85 into 16-32 MiB, whatever the depth (16 reads in flight into one "
               "1 MiB buffer 2.30-2.35, one at a time into 16 buffers 1.41-1.49): the rate follows the memory, not "
               "the requests: `iowall calibrate reports/calibration/gpu-machine/tenth-h200-vm/depth/*.json` fits 7 MiB "
               "(8.95 GB/s); `iowall calibrate` fits both from a machine's own sweep");
  IOWALL_PARAM(Bandwidth, cold_copy_bandwidth, "9 GB/s",
               "copy_cache: the rate at which the host fetches the lines of guest memory its cache does not hold "
               "before the device's copy overwrites them (write-allocate): each such byte of a read adds "
               "1/cold_copy_bandwidth to the device thread's time",
               "measured as copy_cache: 8.95 GB/s fitted with it (1/1.78 - 1/2.23 GB/s = 0.113 ns a byte between "
               "buffers of 16-32 MiB and of 1-4 MiB); `iowall calibrate` fits it from a machine's sweep");
  IOWALL_PARAM_INT(max_segments, 254, 1, 65536,
                   "segments one request may carry (the device's seg_max, the guest's queue/max_segments): the "
                   "block layer splits a request at it",
                   "measured: /sys/block/vda/queue/max_segments 254 on the GPU machine (readpath probe, "
                   "reports/calibration/gpu-machine/seventh-h200-vm), 128 on a 2-vCPU guest");
  IOWALL_PARAM_INT(queue_size, 256, 1, 32768, "virtqueue entries: requests the guest keeps in flight",
                   "Firecracker and QEMU virtio-blk queue size 256; the guest's nr_requests 256 (measured, as above)");

  void flush(Done done, SyncScope scope) override;
  std::vector<const BlockStorage*> fronted() const override { return {&store()}; }
  void find_devices(const std::function<Device*(const std::string&)>& find) override;
  std::string pending_work() const override;

private:
  enum class Kind { read, write, flush };
  struct Request {
    Kind kind = Kind::read;
    Bytes size, offset;
    const Fanout* fanout = nullptr;
    RouteMover* mover = nullptr;
    BlockIo io;
    SyncScope scope = SyncScope::data;
    std::uint32_t id = 0;  // the I/O's (or flush's) pending count in StackedStore
    bool in_host_memory = false;  // served by the thread's copy (set when the thread takes it)
  };
  void split(bool write, i64 at, i64 end, const Fanout& f, RouteMover& mover, Done done, const BlockIo& io) override;
  void post(Request r);                               // the guest puts a request on the ring
  void serve_next();                                  // the device thread takes the next one
  void host_call(std::uint32_t r);                    // the host's work for request r
  void host_done(std::uint32_t r);                    // its host call returned
  void write_back(Done then);                         // the host writes back its dirty bytes
  void write_back_round();                            // one round of it, or the waiters' turn
  BlockStorage& store() const { return *members_.front(); }
  bool caches_writes() const { return host_cache != "none"; }
  // The data segments of a request of `size` from a buffer of `segment` runs (0: one).
  static i64 segments(Bytes size, Bytes segment) {
    return segment.is_positive() ? std::max<i64>(1, ceil_div(size, segment)) : 1;
  }
  // copy_cache: the share of a read's bytes that land in memory the host's cache does not
  // hold, for an issuer cycling through `footprint` (0: fresh memory, all of it).
  double cold_share(Bytes footprint) const;
  // writeback, unsafe: a write, or a read of bytes the host holds dirty, is the thread's
  // copy into or out of host memory, with no store I/O.
  bool served_from_host_memory(const Request& q) const;
  void set_thread_busy(bool busy);

  SlotPool<Request> requests_;
  std::deque<std::uint32_t> ring_;  // requests the device thread has not taken yet
  bool thread_busy_ = false, waking_ = false;
  bool sync_ = true;
  i64 host_in_flight_ = 0;
  ByteRanges dirty_;  // writeback, unsafe: bytes the host holds in its page cache
  std::vector<Done> after_write_back_;
  std::vector<std::uint32_t> pass_done_;  // per_pass: pieces served in this pass, not yet signalled
  std::deque<std::vector<std::uint32_t>> signalled_;  // per_pass: passes signalled, interrupts on the way
  bool per_pass_ = false;
  i64 write_back_left_ = 0;
  TimeWeighted thread_;
  Counter requests_taken_, notifications_, flushes_, written_back_, host_hits_;
};

}  // namespace iowall
