// An NVMe flash SSD seen from the host: the controller's command rate (the IOPS
// ceiling), media access latency with a spread, media bandwidth per direction, and
// MDTS splitting of large requests into commands. Data moves by DMA over the route
// the caller gives (to host memory, or peer-to-peer to a GPU).
#pragma once
#include <memory>
#include <vector>

#include "sim/core/device.hpp"
#include "sim/core/route.hpp"

namespace iowall {

class NvmeSsd final : public Device {
public:
  using Done = InlineFunction<void()>;
  NvmeSsd(const Params& p, SimContext& ctx);

  // Reads `size` and DMAs it along `to`; `done` runs when the last byte has arrived.
  void read(Bytes size, const Route& to, RouteMover& mover, Done done);
  // DMAs `size` from the host along `from`, then commits it to media; `done` on completion.
  void write(Bytes size, const Route& from, RouteMover& mover, Done done);
  std::string pending_work() const override;

  IOWALL_PARAM(Bandwidth, read_bandwidth, "14 GB/s", "sequential read ceiling of the media", "Micron 9550 spec (figures.md)");
  IOWALL_PARAM(Bandwidth, write_bandwidth, "10 GB/s", "sequential write ceiling", "Micron 9550 spec (figures.md)");
  IOWALL_PARAM(Time, read_latency, "60 us", "typical 4 KiB read latency at QD1", "Micron 9550 spec (figures.md)");
  IOWALL_PARAM(Time, write_latency, "15 us", "typical 4 KiB write latency (into the write cache)", "Micron 9550 spec (figures.md)");
  IOWALL_PARAM(Rate, max_iops, "3.3 M/s", "controller command ceiling, 4 KiB random read", "Micron 9550 spec (figures.md)");
  IOWALL_PARAM(Bytes, mdts, "128 KiB", "maximum data transfer size: larger requests split into commands",
               "NVIDIA GDS configuration guide (figures.md): 1 MiB reaches the drive as 128 KiB commands");
  IOWALL_PARAM(Bytes, lba_size, "4 KiB", "logical block size", "NVMe namespace format");
  IOWALL_PARAM(Bytes, capacity, "7.68 TB", "usable capacity", "datasheet");
  IOWALL_PARAM_NUMBER(latency_sigma, 0.15, "spread of media latency: sigma of a lognormal factor with median 1",
                      "assumed until calibrated with `iowall calibrate`");
  IOWALL_PORT(up, "PCIe upstream port", PortRole::pcie_upstream);

private:
  struct Io {
    int commands_left;
    Done done;
    const Route* route;  // where the data goes (reads) or comes from (writes)
    RouteMover* mover;
    std::uint32_t next_free;
  };
  std::uint32_t begin_io(int commands, Done done, const Route& route, RouteMover& mover);
  void command_done(std::uint32_t io);
  Time media_latency(Time typical);

  std::unique_ptr<Server> controller_, media_read_, media_write_;
  std::vector<Io> ios_;
  std::uint32_t free_ = UINT32_MAX;
  int in_flight_ = 0;
  Counter bytes_read_, bytes_written_, commands_;
};

}  // namespace iowall
