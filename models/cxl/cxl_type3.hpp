// A CXL.mem Type-3 memory expander (DRAM behind a CXL controller). A request holds
// one of the device's request slots from crossing the device's link until its media
// access is done: when all are taken, requests wait for one (the M2S request credits
// the device advertises run out). Accepted requests cross the controller, queue for
// the media's internal bandwidth, spend the media latency, and cross the controller
// again.
#pragma once
#include <deque>
#include <memory>

#include "sim/core/device.hpp"
#include "sim/core/server.hpp"
#include "sim/core/slot_pool.hpp"

namespace iowall {

class CxlType3 final : public Device {
public:
  using Done = InlineFunction<void()>;
  CxlType3(const Params& p, SimContext& ctx);

  // Runs `granted` once a request slot is free (now, or when one frees; FIFO).
  void acquire(Done granted);
  // One 64 B access by a request holding a slot; frees the slot, then runs `done`
  // when the response is ready to leave the device.
  void access(Done done);
  std::string pending_work() const override;
  // Media latency plus both controller crossings: an idle device's part of a load.
  Time idle_latency() const { return controller_latency * 2 + media_latency; }

  IOWALL_PARAM(Time, media_latency, "50 ns", "DRAM access on the device (activate, CAS, data out) when idle",
               "assumption: DDR5 tRCD + CL of about 16 ns each plus scheduling; with the controller and link "
               "defaults a direct-attached device sits +80 ns over local DRAM (Pond, ASPLOS'23: +70-90 ns, figures.md)");
  IOWALL_PARAM(Time, controller_latency, "15 ns", "one crossing of the device's CXL controller (flit unpack or pack, decode)",
               "assumption, part of Pond's +70-90 ns budget (figures.md)");
  IOWALL_PARAM(Bandwidth, media_bandwidth, "36 GB/s", "internal bandwidth of the device's DRAM channels (reads + writes)",
               "Micron CZ120 / Samsung CMM-D, Gen5 x8 (vendors, figures.md)");
  IOWALL_PARAM_INT(max_requests, 256, 1, 65536, "requests the device holds at once (request slots / M2S credits)",
                   "assumption: request tracker of a Gen5 x8 expander");
  IOWALL_PARAM(Bytes, capacity, "256 GiB", "memory the device exposes", "Micron CZ120: 128 or 256 GB");
  IOWALL_PORT(up, "CXL port, towards a host or switch", PortRole::any);

private:
  void release();

  std::unique_ptr<Server> media_;
  i64 in_use_ = 0;
  std::deque<Done> waiting_;
  SlotPool<Done> jobs_;  // accesses in the device
  Counter accesses_, waited_;
  TimeWeighted occupancy_;
};

}  // namespace iowall
