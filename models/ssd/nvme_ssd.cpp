#include "models/ssd/nvme_ssd.hpp"

#include <bit>
#include <fmt/format.h>

#include "sim/config/registry.hpp"

namespace iowall {

namespace {
std::vector<int> parse_weights(const Params& p, const std::string& text, int queues) {
  std::vector<int> w(static_cast<std::size_t>(queues), 1);
  std::size_t pos = 0;
  for (int i = 0; pos < text.size(); ++i) {
    const auto comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (i >= queues) p.fail("wrr_weights", fmt::format("more weights than the {} I/O queues", queues));
    try {
      w[static_cast<std::size_t>(i)] = std::stoi(item);
    } catch (const std::exception&) {
      p.fail("wrr_weights", fmt::format("\"{}\" is not an integer weight", item));
    }
    if (w[static_cast<std::size_t>(i)] < 1) p.fail("wrr_weights", "weights must be at least 1");
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return w;
}
}  // namespace

NvmeSsd::NvmeSsd(const Params& p, SimContext& ctx)
    : Device(p, ctx), BlockStorage(static_cast<Device&>(*this)), driver_(make_host_driver(driver)) {
  const HostDriver& host = *driver_;
  const i64 io_queues = host.io_queues;
  if (!p.describing()) {
    const Params& d = host.params();
    if (io_queues > max_queues)
      d.fail("io_queues", fmt::format("{} I/O queues exceed the controller's maximum of {}", io_queues, max_queues));
    if (host.queue_entries > max_queue_entries)
      d.fail("queue_entries", fmt::format("{} entries exceed the controller's maximum of {} (CAP.MQES + 1)",
                                          host.queue_entries, max_queue_entries));
    if (host.cid_bits > 16 && !cid_32bit)
      d.fail("cid_bits", fmt::format("{}-bit CIDs need the drive's 32-bit CID extension (\"cid_32bit\": true); NVMe "
                                     "CIDs are 16 bits",
                                     host.cid_bits));
    if (!reports_volatile_cache && !power_loss_protection && write_cache.is_positive())
      p.fail("reports_volatile_cache", "false for a write cache without power loss protection: such a cache is volatile "
                                       "and the drive must report it (NVMe VWC), or fsync would not make writes durable");
    if (!mdts.is_positive() || !mdts.is_multiple_of(lba_size))
      p.fail("mdts", fmt::format("{} is not a positive multiple of the LBA size {}", to_string(mdts), to_string(lba_size)));
    if (!p.json().contains("media") && p.json().contains("read_latency")) media = "lumped";
    if (doorbell_stride < Bytes(4) || doorbell_stride > Bytes(i64{4} << 15) ||
        !std::has_single_bit(static_cast<std::uint64_t>(doorbell_stride.count())))
      p.fail("doorbell_stride", fmt::format("{} is not 4 << CAP.DSTRD: a power of two from 4 B to 128 KiB",
                                            to_string(doorbell_stride)));
    if (host.shadow_doorbells && !dbbuf_supported)
      d.fail("shadow_doorbells", "the controller does not support Doorbell Buffer Config (the drive's "
                                 "\"dbbuf_supported\": true; emulated controllers do, physical SSDs rarely)");
  }
  controller_ = std::make_unique<Server>(*this, "controller");
  controller_->set_carries("command");
  controller_->set_arbitration(arbitration == "wrr" ? Arbitration::weighted_round_robin : Arbitration::round_robin,
                               parse_weights(p, wrr_weights, static_cast<int>(io_queues)));
  if (!p.describing() && urgent_queues > 0 && arbitration != "wrr")
    p.fail("urgent_queues", "the urgent priority class exists only under weighted round-robin (\"arbitration\": \"wrr\")");
  if (!p.describing() && urgent_queues > io_queues)
    p.fail("urgent_queues", fmt::format("{} urgent queues but only {} I/O queues", urgent_queues, io_queues));
  controller_->set_urgent_classes(static_cast<int>(urgent_queues));
  read_path_ = std::make_unique<Server>(*this, "media_read");
  write_path_ = std::make_unique<Server>(*this, "media_write");
  read_path_->set_carries("media read");
  write_path_->set_carries("media write");
  if (media == "nand") {
    FlashGeometry g;
    g.channels = static_cast<int>(channels);
    g.dies_per_channel = static_cast<int>(dies_per_channel);
    g.planes = static_cast<int>(planes);
    g.page = page_size;
    g.read_time = read_time;
    g.program_time = program_time;
    g.channel_bandwidth = channel_bandwidth;
    g.read_sigma = read_sigma;
    g.read_retry_probability = read_retry_probability;
    flash_ = std::make_unique<FlashMedia>(*this, g);
  }
  // The queues as the host driver creates them, with the drive's doorbell capabilities.
  NvmeQueueConfig q = host.queue_config();
  q.doorbells.stride = doorbell_stride;
  q.doorbells.poll_interval = shadow_poll_interval;
  queues_ = std::make_unique<NvmeQueues>(
      *this, q, [this](std::uint32_t c) { execute(c); }, [this](std::uint32_t c) { reaped(c); });
  set_limits({capacity, lba_size, mdts, queues_->queue_limit()});
  serial_writes_ = write_service == "serial";
  reads_ = make_read_service(read_service, *this);
  if (!reads_) p.fail("read_service", fmt::format("unknown read service \"{}\"", read_service));
  register_stat("bytes_read", "B", "bytes read from media", bytes_read_);
  register_stat("bytes_written", "B", "bytes written to media", bytes_written_);
  register_stat("commands", "commands", "NVMe commands completed", completed_);
}

NvmeSsd::~NvmeSsd() = default;

Time NvmeSsd::lumped(Time median) {
  return scale(median, rng().lognormal_factor(latency_sigma));
}

void NvmeSsd::read(Bytes size, const Route& to, RouteMover& mover, Done done, const NvmeIo& io) {
  start(size, false, to, mover, done, io);
}

void NvmeSsd::write(Bytes size, const Route& from, RouteMover& mover, Done done, const NvmeIo& io) {
  start(size, true, from, mover, done, io);
}

void NvmeSsd::flush(Done done, SyncScope) {
  // No volatile cache reported: the block layer completes the flush without a command.
  if (!reports_volatile_cache) return done();
  // Without power-loss protection a Flush programs the cache's contents first.
  if (!power_loss_protection && flash_ && cache_used_.is_positive()) {
    flush_waiters_.push_back(done);
    return;
  }
  const std::uint32_t id = flushes_.acquire(done);
  // Lumped media with a drain rate: what was written since the last Flush goes first.
  const Time drain = flush_drain_bandwidth.is_positive() ? transfer_time(unflushed_, flush_drain_bandwidth) : Time{};
  unflushed_ = Bytes(0);
  ctx().in(flush_cost + drain, [this, id] {
    const Done d = flushes_[id];
    flushes_.release(id);
    d();
  });
}

void NvmeSsd::start(Bytes size, bool write, const Route& route, RouteMover& mover, Done done, const NvmeIo& io) {
  const i64 n = ceil_div(size, mdts);
  const std::uint32_t id = ios_.acquire({static_cast<int>(n), done, &route, &mover});
  Bytes offset = io.offset;
  if (offset.is_negative()) {
    offset = next_offset_;
    next_offset_ = (next_offset_ + size) % capacity;
  }
  int queue = io.queue;
  if (queue < 0) {
    queue = next_queue_;
    next_queue_ = (next_queue_ + 1) % queues_->config().io_queues;
  }
  queue %= queues_->config().io_queues;
  // MDTS: the driver splits the request; every command has its own SQ entry and CID.
  for (i64 c = 0; c < n; ++c) {
    const Bytes bytes = std::min(mdts, size - mdts * c);
    const std::uint32_t cmd = commands_.acquire({id, bytes, offset + mdts * c, write});
    queues_->submit(cmd, queue, io.queues);
  }
}

void NvmeSsd::execute(std::uint32_t cmd) {
  // Command processing (the IOPS ceiling), arbitrated among the submission queues: a
  // write fetches its data from the host once processed; a read is the read service's.
  if (commands_[cmd].write) {
    if (serial_writes_) {
      // The command's processing and its data's transfer in series: the controller takes
      // the next command only once this one's data has passed; the data then crosses the
      // link into the write cache.
      controller_->submit(interval(max_iops) + transfer_time(commands_[cmd].bytes, write_bandwidth), Time(0), {},
                          [this, cmd] { fetch_serial_write(cmd); }, queues_->queue_of(cmd));
      return;
    }
    controller_->submit(interval(max_iops), Time(0), {}, [this, cmd] { write_media(cmd); }, queues_->queue_of(cmd));
    return;
  }
  reads_->serve(cmd);
}

void NvmeSsd::read_media(std::uint32_t cmd, Time from) {
  // Media access, then the internal data path, then DMA of the data to its destination.
  const Command& c = commands_[cmd];
  if (flash_)
    flash_->read(c.offset, c.bytes, [this, cmd] { deliver(cmd); }, from);
  else
    ctx().at(from + lumped(read_latency), [this, cmd] { deliver(cmd); });
}

void NvmeSsd::deliver(std::uint32_t cmd) {
  const Command& c = commands_[cmd];
  // The data path streams into the DMA engine (cut-through): it caps the rate, it
  // does not add a store-and-forward delay.
  read_path_->submit(transfer_time(c.bytes, read_bandwidth), Time(0), [this, cmd](Time, Time) {
    const Command& cc = commands_[cmd];
    bytes_read_.add(static_cast<std::uint64_t>(cc.bytes.count()));
    const Io& io = ios_[cc.io];
    io.mover->send_arriving(*io.route, cc.bytes, [this, cmd](Time at) {
      queues_->complete_at(cmd, std::max(at, commands_[cmd].not_before));
    });
  });
}

void NvmeSsd::write_media(std::uint32_t cmd) {
  // The drive fetches the data (it reads host or GPU memory, so completions carry it),
  // through the internal data path, into the write cache.
  const Command& c = commands_[cmd];
  const Io& io = ios_[c.io];
  io.mover->send(
      *io.route, c.bytes,
      [this, cmd] {
        write_path_->submit(transfer_time(commands_[cmd].bytes, write_bandwidth), Time(0), {},
                            [this, cmd] { cache_admit(cmd); });
      },
      DmaKind::read);
}

void NvmeSsd::fetch_serial_write(std::uint32_t cmd) {
  // A serial write's data path time was spent on the controller: it crosses the link only.
  const Command& c = commands_[cmd];
  const Io& io = ios_[c.io];
  io.mover->send(*io.route, c.bytes, [this, cmd] { cache_admit(cmd); }, DmaKind::read);
}

void NvmeSsd::cache_admit(std::uint32_t cmd) {
  const Command& c = commands_[cmd];
  if (!flash_) {
    ctx().at(now() + lumped(write_latency), [this, cmd] {
      bytes_written_.add(static_cast<std::uint64_t>(commands_[cmd].bytes.count()));
      unflushed_ += commands_[cmd].bytes;
      queues_->complete(cmd);
    });
    return;
  }
  if (write_cache.is_zero()) {  // write-through: complete once programmed
    flash_->program(c.offset, c.bytes, [this, cmd] {
      bytes_written_.add(static_cast<std::uint64_t>(commands_[cmd].bytes.count()));
      queues_->complete(cmd);
    });
    return;
  }
  if (cache_used_ + c.bytes > write_cache) {  // full: wait for programs to drain it
    cache_waiters_.push_back(cmd);
    return;
  }
  cache_used_ += c.bytes;
  const Bytes offset = c.offset, bytes = c.bytes;
  ctx().at(now() + write_latency, [this, cmd] { queues_->complete(cmd); });
  // Destaging to media runs behind the completion; the space frees when it is programmed.
  flash_->program(offset, bytes, [this, bytes] {
    bytes_written_.add(static_cast<std::uint64_t>(bytes.count()));
    cache_used_ -= bytes;
    while (!cache_waiters_.empty() && cache_used_ + commands_[cache_waiters_.front()].bytes <= write_cache) {
      const std::uint32_t next = cache_waiters_.front();
      cache_waiters_.pop_front();
      cache_admit(next);
    }
    while (cache_used_.is_zero() && !flush_waiters_.empty()) {
      const Done d = flush_waiters_.front();
      flush_waiters_.pop_front();
      flush(d, SyncScope::data);
    }
  });
}

void NvmeSsd::reaped(std::uint32_t cmd) {
  completed_.add();
  const std::uint32_t id = commands_[cmd].io;
  commands_.release(cmd);
  if (--ios_[id].commands_left > 0) return;
  const Done done = ios_[id].done;
  ios_.release(id);
  done();
}

std::string NvmeSsd::pending_work() const {
  const std::size_t n = ios_.live();
  if (n == 0 && (flushes_.live() > 0 || !flush_waiters_.empty()))
    return fmt::format("{} flushes in flight", flushes_.live() + flush_waiters_.size());
  return n ? fmt::format("{} I/Os in flight ({} commands, {} in the write cache wait)", n, commands_.live(),
                         cache_waiters_.size())
           : std::string{};
}

IOWALL_REGISTER_DEVICE(NvmeSsd, "nvme_ssd", "NVMe SSD: queue pairs, controller, write cache, NAND media");

}  // namespace iowall
