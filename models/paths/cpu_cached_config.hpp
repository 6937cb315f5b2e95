// cpu_cached's parameters (models/paths/cpu_cached.cpp): the page cache's size and
// bookkeeping, the system calls and copies of buffered I/O, readahead (read_ahead,
// max_sectors, fadvise), a mapped view's page allocation, the vm.dirty_* thresholds and the
// flusher's writeback (its rate, requests, depth, and a new file's block allocation).
#pragma once
#include <string>
#include <vector>

#include "models/host/cached_reads.hpp"
#include "models/host/readahead.hpp"
#include "sim/core/params.hpp"

namespace iowall {

struct CpuCachedConfig : ParamSet {
  using ParamSet::ParamSet;
  IOWALL_PARAM(Time, syscall_cost, "2 us", "CPU time of one read()/write() system call through the VFS",
               "order of magnitude of Linux buffered I/O per call; calibrate with `iowall calibrate`");
  IOWALL_PARAM(Time, copy_launch_cost, "3 us", "CPU time to launch and synchronize one cudaMemcpy", "as cpu_gpu");
  IOWALL_PARAM(Bytes, page_cache, "256 GiB", "memory the page cache may use", "assumed: a share of host DRAM");
  // Dirty page-cache data (Documentation/admin-guide/sysctl/vm.rst gives each default).
  IOWALL_PARAM_NUMBER(dirty_ratio, 20, 0, 100, "vm.dirty_ratio: percent of dirtyable memory at which writers "
                      "wait for writeback", "Linux Documentation/admin-guide/sysctl/vm.rst (default 20)");
  IOWALL_PARAM_NUMBER(dirty_background_ratio, 10, 0, 100, "vm.dirty_background_ratio: percent of dirtyable "
                      "memory past which the flusher writes back", "Linux Documentation/admin-guide/sysctl/vm.rst "
                      "(default 10)");
  IOWALL_PARAM(Bytes, dirty_bytes, "0 B", "vm.dirty_bytes: the hard threshold in bytes; wins over dirty_ratio when "
               "set", "Linux Documentation/admin-guide/sysctl/vm.rst (default 0: unset)");
  IOWALL_PARAM(Bytes, dirty_background_bytes, "0 B", "vm.dirty_background_bytes: the background threshold in bytes; "
               "wins over dirty_background_ratio when set", "Linux Documentation/admin-guide/sysctl/vm.rst (default 0)");
  IOWALL_PARAM(Time, dirty_expire, "30 s", "vm.dirty_expire_centisecs: dirty data older than this is written back",
               "Linux Documentation/admin-guide/sysctl/vm.rst (default 3000 centisecs)");
  IOWALL_PARAM(Time, dirty_writeback_interval, "5 s", "vm.dirty_writeback_centisecs: the flusher's wake-up period",
               "Linux Documentation/admin-guide/sysctl/vm.rst (default 500 centisecs)");
  IOWALL_PARAM(Bytes, dirtyable_memory, "0 B", "free and reclaimable memory the ratios apply to; 0: the host "
               "memory's capacity", "mm/page-writeback.c global_dirtyable_memory(); MemAvailable in /proc/meminfo");
  IOWALL_PARAM(Bytes, writeback_request, "1 MiB", "one writeback request (the block queue's max_sectors_kb)",
               "Linux block layer: max_sectors_kb (1280 KiB on many NVMe drives, 4 MiB on virtio-blk)");
  IOWALL_PARAM_INT(writeback_depth, 32, 1, 4096, "writeback requests in flight per device",
                   "assumed: the block queue's nr_requests bounds them");
  IOWALL_PARAM(Bandwidth, flusher_bandwidth, "10 GB/s", "the flusher thread's rate of turning dirty pages into "
               "writeback requests (page lookup, block mapping, bio building; one thread per device)",
               "assumed (about 0.4 us per 4 KiB page); `iowall calibrate` fits it from buffered writes until "
               "durable");
  IOWALL_PARAM(Time, new_block_cost, "0.22 us",
               "writeback time per 4 KiB page of a new file beyond an overwrite's (a write with new_file blocks: "
               "the file system allocating them, ext4's delayed allocation; on a virtual disk also the image's "
               "first write of them), on the flusher's pass",
               "scripts/probe-writeback.py on two H200 VMs: fsync of 1, 2 and 8 GiB written to a new file against "
               "the same file overwritten, 0.136, 0.194 and 0.61 s more on one and 0.118, 0.222 and 0.227 s on the "
               "other (3 rounds each, the disk 99% busy both ways; reports/calibration/gpu-machine/"
               "{fifteenth,seventeenth}-h200-vm/writeback): 0.22 us a page, least squares through the origin on the "
               "six medians; `iowall calibrate` fits flusher_bandwidth from overwrites");
  IOWALL_PARAM(Bytes, read_ahead, "128 KiB",
               "the block queue's read_ahead_kb: the largest readahead window (0: readahead off, each read() reads "
               "what it asks for, a page at a time)",
               "Linux mm/readahead.c and block/blk-settings.c: VM_READAHEAD_PAGES (128 KiB) unless the device's "
               "optimal I/O size asks for more; machines and udev rules set their own (8 MiB on the GPU machine's "
               "virtio disk, scripts/probe-read-path.py queue/read_ahead_kb)");
  IOWALL_PARAM(Bytes, max_sectors, "4 MiB",
               "the block queue's max_sectors_kb: the largest request readahead sends (and the window a read larger "
               "than read_ahead may use), at most the store's largest command",
               "Linux block/blk-settings.c BLK_DEF_MAX_SECTORS_CAP: 4 MiB since 6.17 (commit 9b8b84879d4a), 1280 KiB "
               "before; 4 MiB requests seen on the GPU machine's virtio disk (scripts/probe-read-path.py)");
  IOWALL_PARAM_CHOICE(fadvise, "normal", (std::vector<std::string>{"normal", "sequential", "random"}),
                      "the reader's posix_fadvise on the file: normal, sequential (the file's readahead window "
                      "doubled) or random (no readahead: each read() reads exactly its pages, in 2 MiB pieces)",
                      "Linux mm/fadvise.c (POSIX_FADV_SEQUENTIAL: ra_pages = 2 x the device's; POSIX_FADV_RANDOM: "
                      "FMODE_RANDOM) and mm/readahead.c force_page_cache_ra");
  IOWALL_PARAM(Bytes, block, "128 KiB",
               "page-cache bookkeeping: the unit of its LRU order and eviction (pages are cached each on its own "
               "within it)", "a model granularity: Linux evicts 4 KiB pages or folios");
  IOWALL_PARAM(Time, write_page_cost, "0.6 us",
               "CPU time a buffered write spends per 4 KiB page it fills beyond copying the bytes: allocating the "
               "page-cache page, charging it, inserting it into the file's mapping and LRU, the file system's "
               "write_begin/write_end (ext4's delayed-allocation reservation) and dirtying it",
               "scripts/probe-page-cache.py (write() of GiBs from a cold source less a memcpy of the same bytes, per "
               "page): 0.63 us on an H200 VM (4 GiB, median of 3: reports/calibration/gpu-machine/fourth-h200-vm/"
               "pagecache) and 0.56 us on a 2-vCPU build VM (1 GiB, median of 3: reports/calibration/cpu-machine/"
               "page-cache); `iowall calibrate` sets 0, its fitted syscall_cost holding it");
  IOWALL_PARAM(Time, view_page_cost, "0.66 us",
               "CPU time the thread that brings a mapped file's range in (a tensor view) spends per 4 KiB page "
               "before the range's requests go out: allocating small (order-0) page-cache pages and inserting "
               "them into the file's mapping, the block plug holding the requests meanwhile",
               "scripts/probe-mapped-load.py touch_heads on an H200 VM: 0.689 s of process CPU for 512 mmap "
               "read-arounds of 8 MiB each (median of 3; reports/calibration/gpu-machine/fourteenth-h200-vm/"
               "mappedload): 0.66 us a page; the same probe's safetensors get_tensor: 0.62 us");
  IOWALL_PARAM_CHOICE(user_buffer, "pageable", (std::vector<std::string>{"pageable", "pinned"}),
                      "the application's buffer: pageable (cudaMemcpy stages it through the driver's pinned "
                      "buffer, a second copy) or pinned (cudaHostAlloc/cudaHostRegister: the copy engine reads it)",
                      "CUDA programming guide, page-locked host memory");
  IOWALL_PARAM_CHOICE(cache_at_start, "cold", (std::vector<std::string>{"cold", "warm"}),
                      "the page cache when the run starts: cold (nothing cached) or warm (every block of the "
                      "target resident, as a file just written or read before; blocks are missed once evicted)",
                      "fio lays out its file with buffered writes (warm unless --invalidate); iowall measure "
                      "drops its fill and records the share cached (page_cache_resident_at_start)");
  IOWALL_PARAM_CHOICE(buffered_writes, "inline", (std::vector<std::string>{"inline", "io_wq"}),
                      "how a buffered write reaches the page cache: inline (write() in the calling thread, psync) "
                      "or io_wq (io_uring punts it to its io-wq worker: the writes of one file run there one at a "
                      "time, io_wq_handoff after their submission, while the submitter goes on)",
                      "io_uring/io_uring.c io_prep_async_work: a write to a regular file is hashed by its inode "
                      "and io-wq runs work of one hash one at a time; fs/ext4/file.c ext4_buffered_write_iter "
                      "holds the inode lock over the copy; S. Roesch, 'Support async buffered writes for "
                      "io-uring' (2022): buffered writes otherwise go only through the io workers");
  IOWALL_PARAM(Time, io_wq_handoff, "10 us", "io_wq: from a write's submission to its completion reaped, beside "
               "the worker's own time (io-wq enqueue and worker wake-up, the CQE and the submitter's wake-up); "
               "a latency, not a serial step: hidden once several writes are in flight",
               "assumed: two wake-ups; `iowall calibrate` fits it (a writer's QD1 time per write minus the "
               "file's serial time per write at a deeper queue)");
  bool pinned_user_buffer = user_buffer == "pinned";
  ReadaheadLimits readahead_limits(const BlockLimits& store) const {
    Bytes io = max_sectors;
    if (store.max_transfer.is_positive()) io = std::min(io, store.max_transfer);
    const i64 ra = read_ahead / CachedReads::kPage * (fadvise == "sequential" ? 2 : 1);
    return {ra, std::max<i64>(1, io / CachedReads::kPage), fadvise == "random"};
  }
  bool io_wq_writes = buffered_writes == "io_wq";
  bool warm_cache = cache_at_start == "warm";
};

}  // namespace iowall
