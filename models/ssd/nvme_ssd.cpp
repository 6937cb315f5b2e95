#include "models/ssd/nvme_ssd.hpp"

#include <fmt/format.h>

#include "sim/config/registry.hpp"

namespace iowall {

NvmeSsd::NvmeSsd(const Params& p, SimContext& ctx) : Device(p, ctx) {
  controller_ = std::make_unique<Server>(*this, "controller");
  media_read_ = std::make_unique<Server>(*this, "media_read");
  media_write_ = std::make_unique<Server>(*this, "media_write");
  register_stat("bytes_read", "B", "bytes read from media", bytes_read_);
  register_stat("bytes_written", "B", "bytes written to media", bytes_written_);
  register_stat("commands", "commands", "NVMe commands completed", commands_);
}

std::uint32_t NvmeSsd::begin_io(int commands, Done done, const Route& route, RouteMover& mover) {
  std::uint32_t i;
  if (free_ != UINT32_MAX) {
    i = free_;
    free_ = ios_[i].next_free;
  } else {
    ios_.push_back({});
    i = static_cast<std::uint32_t>(ios_.size() - 1);
  }
  ios_[i] = Io{commands, done, &route, &mover, UINT32_MAX};
  ++in_flight_;
  return i;
}

void NvmeSsd::command_done(std::uint32_t io) {
  commands_.add();
  if (--ios_[io].commands_left > 0) return;
  const Done done = ios_[io].done;
  ios_[io].next_free = free_;
  free_ = io;
  --in_flight_;
  done();
}

Time NvmeSsd::media_latency(Time typical) {
  return Time(static_cast<i64>(static_cast<double>(typical.ps) * rng().lognormal_factor(latency_sigma)));
}

void NvmeSsd::read(Bytes size, const Route& to, RouteMover& mover, Done done) {
  const i64 n = (size.n + mdts.n - 1) / mdts.n;
  const std::uint32_t io = begin_io(static_cast<int>(n), done, to, mover);
  for (i64 c = 0; c < n; ++c) {
    const Bytes bytes(std::min(mdts.n, size.n - c * mdts.n));
    // Command processing (the IOPS ceiling), then the media access, then the media
    // channel's bandwidth, then DMA of the data to its destination.
    controller_->submit(interval(max_iops), Time(0), [this, io, bytes](Time, Time end) {
      ctx().at(end + media_latency(read_latency), [this, io, bytes] {
        media_read_->submit(transfer_time(bytes, read_bandwidth), Time(0), [this, io, bytes](Time, Time end) {
          ctx().at(end, [this, io, bytes] {
            bytes_read_.add(static_cast<std::uint64_t>(bytes.n));
            ios_[io].mover->send(*ios_[io].route, bytes, [this, io] { command_done(io); });
          });
        });
      });
    });
  }
}

void NvmeSsd::write(Bytes size, const Route& from, RouteMover& mover, Done done) {
  const i64 n = (size.n + mdts.n - 1) / mdts.n;
  const std::uint32_t io = begin_io(static_cast<int>(n), done, from, mover);
  for (i64 c = 0; c < n; ++c) {
    const Bytes bytes(std::min(mdts.n, size.n - c * mdts.n));
    // Command processing, DMA of the data from the host, then the write into the
    // drive's cache (latency) at the media's write bandwidth.
    controller_->submit(interval(max_iops), Time(0), [this, io, bytes](Time, Time end) {
      ctx().at(end, [this, io, bytes] {
        // The drive fetches the data: it reads host (or GPU) memory, so completions carry it.
        ios_[io].mover->send(
            *ios_[io].route, bytes,
            [this, io, bytes] {
              media_write_->submit(transfer_time(bytes, write_bandwidth), now() + media_latency(write_latency),
                                   [this, io, bytes](Time, Time end) {
                                     ctx().at(end, [this, io, bytes] {
                                       bytes_written_.add(static_cast<std::uint64_t>(bytes.n));
                                       command_done(io);
                                     });
                                   });
            },
            DmaKind::read);
      });
    });
  }
}

std::string NvmeSsd::pending_work() const {
  return in_flight_ ? fmt::format("{} I/Os in flight", in_flight_) : std::string{};
}

IOWALL_REGISTER_DEVICE(NvmeSsd, "nvme_ssd", "NVMe flash SSD behind one PCIe port");
IOWALL_PRESET("device", "nvme_ssd", "pm1743", "Samsung PM1743 7.68 TB, Gen5 x4", "Samsung spec (figures.md)",
              R"({"read_bandwidth": "13 GB/s", "write_bandwidth": "6.6 GB/s", "max_iops": "2.5 M/s",
                  "read_latency": "70 us", "write_latency": "15 us", "capacity": "7.68 TB"})");
IOWALL_PRESET("device", "nvme_ssd", "micron_9550", "Micron 9550 7.68 TB, Gen5 x4", "Micron spec (figures.md)",
              R"({"read_bandwidth": "14 GB/s", "write_bandwidth": "10 GB/s", "max_iops": "3.3 M/s",
                  "read_latency": "60 us", "write_latency": "15 us", "capacity": "7.68 TB"})");
IOWALL_PRESET("device", "nvme_ssd", "cm7r", "Kioxia CM7-R, Gen5 x4", "vendor (figures.md)",
              R"({"read_bandwidth": "14 GB/s", "write_bandwidth": "6.75 GB/s", "max_iops": "2.45 M/s",
                  "read_latency": "70 us", "write_latency": "15 us", "capacity": "7.68 TB"})");
IOWALL_PRESET("device", "nvme_ssd", "micron_9650", "Micron 9650, Gen6 x4", "vendor (figures.md)",
              R"({"read_bandwidth": "28 GB/s", "write_bandwidth": "14 GB/s", "max_iops": "5.5 M/s",
                  "read_latency": "60 us", "write_latency": "15 us", "capacity": "7.68 TB"})");
IOWALL_PRESET("device", "nvme_ssd", "dgx2_nvme", "NVMe drive of a DGX-2 (~3.4 GB/s each)", "NVIDIA GDS guide (figures.md)",
              R"({"read_bandwidth": "3.4 GB/s", "write_bandwidth": "2 GB/s", "max_iops": "0.75 M/s",
                  "read_latency": "90 us", "write_latency": "20 us", "capacity": "3.84 TB"})");

}  // namespace iowall
