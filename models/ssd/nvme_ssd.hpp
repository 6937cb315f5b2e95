// An NVMe SSD seen from the host: the NVMe queue pairs and their PCIe traffic
// (models/nvme), set up by the host's driver (a named child component: irq or polled),
// the controller's command-processing rate (the IOPS ceiling) with
// arbitration among submission queues, how it serves reads (a named read service:
// overlapped, serial or batched) and writes (a named write service: pipelined or
// serial), MDTS splitting, the internal data path's
// bandwidth, a write cache (power-loss protected, or volatile: a Flush then drains it),
// and the media: channels x dies x
// planes of NAND (or a lumped latency, what `iowall calibrate` fits). Data moves by
// DMA over the route the caller gives (to host memory, or peer-to-peer to a GPU).
#pragma once
#include <deque>
#include <memory>

#include "models/nvme/host_driver.hpp"
#include "models/nvme/nvme_queues.hpp"
#include "models/ssd/flash_media.hpp"
#include "models/ssd/read_service.hpp"
#include "sim/core/block_storage.hpp"
#include "sim/core/device.hpp"
#include "sim/core/route.hpp"
#include "sim/core/slot_pool.hpp"

namespace iowall {

// An NVMe I/O's details are block storage's hints: offset, queue pair, where the
// queues live.
using NvmeIo = BlockIo;

class NvmeSsd final : public Device, public BlockStorage {
public:
  using Done = BlockStorage::Done;
  NvmeSsd(const Params& p, SimContext& ctx);

  // Reads `size` and DMAs it along `to`; `done` runs when the host has reaped the last
  // command's completion.
  void read(Bytes size, const Route& to, RouteMover& mover, Done done, const NvmeIo& io = {}) override;
  // DMAs `size` from the host along `from`, then commits it (write cache or media).
  void write(Bytes size, const Route& from, RouteMover& mover, Done done, const NvmeIo& io = {}) override;
  // NVMe Flush: with power-loss protection the cache is already durable and the command
  // completes after flush_cost; without it the drive first programs everything its write
  // cache holds (NAND media; a lumped drive has no cache modelled and pays flush_cost,
  // plus the drain of what was written since the last Flush at flush_drain_bandwidth).
  void flush(Done done, SyncScope scope) override;
  BlockStorage* as_block_storage() override { return this; }
  std::string pending_work() const override;
  ~NvmeSsd() override;
  const NvmeQueues& queues() const { return *queues_; }

  // Controller.
  IOWALL_PARAM(Rate, max_iops, "3.3 M/s", "command-processing rate of the controller (4 KiB random-read ceiling)",
               "Micron 9550 spec (figures.md)");
  IOWALL_PARAM(Bandwidth, read_bandwidth, "14 GB/s", "internal read data path ceiling (sequential read spec)",
               "Micron 9550 spec (figures.md)");
  IOWALL_PARAM(Bandwidth, write_bandwidth, "10 GB/s", "internal write data path ceiling (sequential write spec)",
               "Micron 9550 spec (figures.md)");
  IOWALL_PARAM(Bytes, mdts, "128 KiB", "maximum data transfer size: larger requests split into commands",
               "NVIDIA GDS configuration guide (figures.md): 1 MiB reaches the drive as 128 KiB commands");
  IOWALL_PARAM(Bytes, lba_size, "4 KiB", "logical block size", "NVMe namespace format");
  IOWALL_PARAM(Bytes, capacity, "7.68 TB", "usable capacity", "datasheet");
  IOWALL_PARAM_CHOICE(arbitration, "rr", (std::vector<std::string>{"rr", "wrr"}),
                      "arbitration among submission queues (CC.AMS): round-robin or weighted round-robin",
                      "NVMe base spec 2.0, 3.4.4");
  IOWALL_PARAM_INT(urgent_queues, 0, 0, 65535,
                   "I/O queues (the first ones) in the urgent priority class, served before all others under wrr",
                   "NVMe base spec 2.0, 3.4.4: weighted round robin with urgent priority class");
  IOWALL_PARAM(std::string, wrr_weights, "", "comma-separated weight per I/O queue under wrr (default 1 each)",
               "NVMe base spec 2.0, 3.4.4 (high/medium/low priority weights)");
  // Queues: the controller's limits and capabilities; the host driver (below) creates
  // the queues within them.
  IOWALL_PARAM_INT(max_link_width, 16, 1, 32,
                   "widest PCIe link the drive trains to: a wider link trains down to this width",
                   "generic: x16, so a plain nvme_ssd (a lumped drive or array) keeps its link; the presets "
                   "give x4 (U.2/E3.S/M.2 drives are x4, the product briefs)");
  IOWALL_PARAM_INT(max_queues, 128, 1, 65535, "I/O queue pairs the controller supports", "typical Gen5 datacenter drive (nvme id-ctrl); spec maximum 65,535");
  IOWALL_PARAM_INT(max_queue_entries, 1024, 2, 65536, "entries per queue the controller supports (CAP.MQES + 1)",
                   "typical datacenter drive; spec maximum 65,536");
  IOWALL_PARAM_BOOL(cid_32bit, false, "the proposed 32-bit CID extension (seed 000); required for the driver's cid_bits above 16",
                    "seed 000 (proposal, not in the spec)");
  // Doorbells (models/nvme/doorbell_writes.hpp).
  IOWALL_PARAM(Bytes, doorbell_stride, "4 B", "distance between doorbell registers, 4 << CAP.DSTRD (a capability of the device)",
               "NVMe base spec 2.0, 3.1.2 (CAP.DSTRD); most drives report 0, i.e. 4 B");
  IOWALL_PARAM_BOOL(dbbuf_supported, false, "the controller supports Doorbell Buffer Config (OACS bit 8)",
                    "NVMe 1.3+: meant for emulated controllers, rarely on physical SSDs (seed 000)");
  IOWALL_PARAM(Time, shadow_poll_interval, "1 us", "an active controller re-reads the shadow doorbells this often",
               "assumption: an emulated controller's polling loop");
  // The host's NVMe driver: a named child component (models/nvme/host_driver.hpp).
  IOWALL_PARAM_CHILD(driver, host_drivers::irq, "driver", host_driver_names(),
                     "the host's NVMe driver: its queues (io_queues, queue_entries, cid_bits), doorbell writes and "
                     "how it learns of completions: irq (MSI-X interrupts, coalescing, shared vectors) or polled "
                     "(every CQ polled); a name, or {\"model\": NAME, its parameters}; `iowall models NAME` for each",
                     "NVMe base spec 2.0, 3.5; Linux nvme driver");
  // Media.
  IOWALL_PARAM_CHOICE(media, "nand", (std::vector<std::string>{"nand", "lumped"}),
                      "nand: channels x dies x planes; lumped: one latency with a spread (what calibration fits). "
                      "Default lumped when read_latency is given",
                      "");
  IOWALL_PARAM_INT(channels, 8, 1, 64, "flash channels", "Gen5 controllers: 8 channels (vendor briefs)");
  IOWALL_PARAM_INT(dies_per_channel, 16, 1, 64, "dies per channel", "capacity / die size: 7.68 TB of 512 Gb dies = 120");
  IOWALL_PARAM_INT(planes, 4, 1, 8, "planes per die (independent page reads)", "TLC NAND of 2020-2024: 4-6 planes");
  IOWALL_PARAM(Bytes, page_size, "16 KiB", "NAND page", "TLC NAND of 2020-2024");
  IOWALL_PARAM(Time, read_time, "50 us", "page read time tR (median)", "TLC NAND of 2020-2024: 40-60 us");
  IOWALL_PARAM(Time, program_time, "600 us", "page program time tPROG", "TLC NAND of 2020-2024: 400-800 us");
  IOWALL_PARAM(Bandwidth, channel_bandwidth, "2.4 GB/s", "flash channel transfer rate", "ONFI 5.0 / Toggle 5: 2400 MT/s x 8 bit");
  IOWALL_PARAM_NUMBER(read_sigma, 0.1, 0.0, 2.0, "spread of tR: sigma of a lognormal factor with median 1",
                      "assumed until calibrated");
  IOWALL_PARAM_NUMBER(read_retry_probability, 1e-4, 0.0, 0.99, "probability a page read needs another sensing pass",
                      "assumed (grows with wear and retention); drives the p99.99 tail");
  IOWALL_PARAM(Bytes, write_cache, "1 GiB", "write cache (DRAM); 0: writes go through to media",
               "assumed: a fraction of the drive DRAM (1 GB per TB)");
  IOWALL_PARAM_BOOL(power_loss_protection, true,
                    "capacitors make the write cache durable (PLP): a Flush does not wait for the cache to drain",
                    "Micron 9550 product brief: power loss protection (datacenter drives have it; consumer ones "
                    "such as the Samsung 980 Pro do not)");
  IOWALL_PARAM_BOOL(reports_volatile_cache, true,
                    "the drive reports a volatile write cache (Identify Controller VWC): Linux sends a Flush for "
                    "each fsync; false (a power-backed cache reported write-through): Linux sends none and a flush "
                    "costs nothing",
                    "NVMe base spec, Identify Controller VWC; Linux nvme driver blk_queue_write_cache(q, vwc, vwc), "
                    "block/blk-flush.c drops PREFLUSH/FUA on a queue without a write cache. Which way a drive with "
                    "power loss protection reports is its firmware's choice");
  IOWALL_PARAM(Time, flush_cost, "5 us", "an NVMe Flush command once nothing volatile is left: its processing and "
               "completion (for a virtual disk: the backend's flush of its host file, fitted by `iowall calibrate`)",
               "assumed: a command round trip (NVMe base spec 2.0, 7.1 Flush)");
  IOWALL_PARAM(Bandwidth, flush_drain_bandwidth, "0 GB/s",
               "lumped media: a Flush also waits for the bytes written since the previous Flush to drain at this "
               "rate (a virtual disk's host writing back what it cached); 0: no drain",
               "measured: O_DSYNC overwrites of 128 KiB and 1 MiB (scripts/probe-ext4-journal.sh), whose flush "
               "grows with the bytes written before it");
  IOWALL_PARAM(Time, write_latency, "15 us", "a write accepted into the write cache (or the lumped write latency)",
               "Micron 9550 spec (figures.md): typical write latency 15 us");
  IOWALL_PARAM(Time, read_latency, "60 us", "lumped media: median read latency", "Micron 9550 spec (figures.md)");
  IOWALL_PARAM_NUMBER(latency_sigma, 0.15, 0.0, 2.0, "lumped media: sigma of a lognormal latency factor with median 1",
                      "assumed until calibrated with `iowall calibrate`");
  // How the controller serves a read: a named child component (models/ssd/read_service.hpp).
  IOWALL_PARAM_CHOICE(read_service, read_services::overlapped, read_service_names(),
                      "how the controller serves reads: overlapped (command processing beside earlier reads' data "
                      "transfer, a physical SSD), serial (each read's data moves before the next command) or batched "
                      "(serial reads served a pass at a time, one wake-up each); `iowall models NAME` for each",
                      "overlapped: NVMe controllers pipeline commands; serial and batched: the calibration sweeps of "
                      "the project's VMs (reports/calibration/README.md)");
  // How the controller serves a write: its processing beside other writes' data (pipelined
  // stages) or, in series with its own data, one command after another.
  IOWALL_PARAM_CHOICE(write_service, "pipelined", (std::vector<std::string>{"pipelined", "serial"}),
                      "how the controller serves writes: pipelined (command processing, 1/max_iops, beside earlier "
                      "writes' data on the write path, size/write_bandwidth: a physical SSD) or serial (each write "
                      "holds the controller for 1/max_iops + size/write_bandwidth before the next one starts: an "
                      "emulated device whose one I/O thread serves requests in turn)",
                      "pipelined: NVMe controllers pipeline commands; serial: the O_DIRECT write sweeps of the "
                      "project's VMs (reports/calibration/gpu-machine/checkpoint-h200/writes), whose concurrent "
                      "write rate grows with the request size (3.2 GB/s at 128 KiB, 4.0-4.3 GB/s at 1 MiB)");
  IOWALL_PORT(up, "PCIe upstream port", PortRole::pcie_upstream);

private:
  friend class ReadService;  // the read service composes the steps below
  struct Io {
    int commands_left;
    Done done;
    const Route* route;  // where the data goes (reads) or comes from (writes)
    RouteMover* mover;
  };
  struct Command {
    std::uint32_t io;
    Bytes bytes, offset;
    bool write;
    Time not_before{};  // a read completes no earlier (a batched read: its batch's end)
  };
  void start(Bytes size, bool write, const Route& route, RouteMover& mover, Done done, const NvmeIo& io);
  void execute(std::uint32_t cmd);
  void read_media(std::uint32_t cmd, Time from);
  void deliver(std::uint32_t cmd);  // the read's data to its destination, then its completion
  void write_media(std::uint32_t cmd);
  void fetch_serial_write(std::uint32_t cmd);
  void cache_admit(std::uint32_t cmd);
  void reaped(std::uint32_t cmd);
  Time lumped(Time median);

  std::unique_ptr<Server> controller_, read_path_, write_path_;
  std::unique_ptr<ReadService> reads_;
  std::unique_ptr<HostDriver> driver_;
  std::unique_ptr<FlashMedia> flash_;
  std::unique_ptr<NvmeQueues> queues_;
  SlotPool<Io> ios_;
  SlotPool<Command> commands_;
  bool serial_writes_ = false;  // write_service "serial"
  Bytes cache_used_;
  Bytes unflushed_;  // lumped media: bytes written since the last Flush began
  std::deque<std::uint32_t> cache_waiters_;
  std::deque<Done> flush_waiters_;  // volatile cache: flushes waiting for it to drain
  SlotPool<Done> flushes_;          // flushes in their final flush_cost
  int next_queue_ = 0;
  Bytes next_offset_;
  Counter bytes_read_, bytes_written_, completed_;
};

}  // namespace iowall
