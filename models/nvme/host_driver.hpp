// The host's NVMe driver as a named child component of `nvme_ssd`: it creates the I/O
// queue pairs the drive serves (how many, how deep, how many command ids), writes the
// doorbells (MMIO registers, or the shadow buffer of Doorbell Buffer Config) and decides
// how the host learns of completions. Chosen by name in the drive's "driver" key:
//   "driver": "irq"                                   MSI-X interrupts (the default)
//   "driver": {"model": "polled", "io_queues": 8}     every completion queue polled
// One small implementation each, registered by a macro next to its class
// (models/nvme/host_drivers.cpp) and listed by `iowall models` in the "driver" domain
// with its own parameters. A driver sets the queues up once (NvmeQueueConfig); polling
// is decided here alone: a polled driver polls every queue, an interrupt-driven one only
// the queues whose submitter asks to poll (io_uring IOPOLL, SPDK, GPU-owned queues:
// QueueRoutes::submitter_polls), as Linux serves those from its poll queues.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/nvme/nvme_queues.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/params.hpp"

namespace iowall {

// The drivers' names: what "driver" takes.
namespace host_drivers {
inline constexpr char irq[] = "irq";
inline constexpr char polled[] = "polled";
}  // namespace host_drivers

class HostDriver : public ParamSet {
public:
  explicit HostDriver(const Params& p);
  virtual ~HostDriver() = default;

  // The queues as this driver creates them. The drive's own capabilities (doorbell
  // stride, the shadow-buffer polling of an emulated controller) are the drive's to add.
  virtual NvmeQueueConfig queue_config() const;

  // Queue pairs and command ids.
  IOWALL_PARAM_INT(io_queues, 32, 1, 65535, "I/O queue pairs the host creates (within the drive's max_queues)",
                   "Linux: one per CPU up to the controller's maximum");
  IOWALL_PARAM_INT(queue_entries, 1024, 2, 65536,
                   "entries per SQ and CQ the host creates (within the drive's max_queue_entries)",
                   "Linux nvme io_queue_depth default 1024");
  IOWALL_PARAM_INT(cid_bits, 16, 1, 32,
                   "bits of command identifier per queue (CIDs in use bound the I/Os in flight); above 16 the drive "
                   "must support the 32-bit CID extension (its cid_32bit)",
                   "NVMe base spec 2.0: CID is 16 bits; 32 needs the proposed extension");
  // Doorbell writes (models/nvme/doorbell_writes.hpp).
  IOWALL_PARAM_INT(doorbell_batch, 1, 1, 65536, "SQ entries the host writes before ringing the SQ tail doorbell",
                   "1: one per command; 32: a warp's batch (seed 000)");
  IOWALL_PARAM(Time, mmio_doorbell_cost, "0 ns",
               "submitter time for one MMIO doorbell write; 0: folded into the host stack's submit cost (bare metal). "
               "In a VM an emulated controller's register write exits to the hypervisor",
               "assumption: a posted store on bare metal; a VM exit round trip is microseconds");
  IOWALL_PARAM_BOOL(shadow_doorbells, false,
                    "the host stores doorbell values in a shadow buffer the controller polls (DBBUF), ringing the "
                    "register only when the controller's EventIdx asks; the drive must support it (dbbuf_supported)",
                    "NVMe base spec 2.0, 5.8 Doorbell Buffer Config");
  IOWALL_PARAM(Time, shadow_store_cost, "5 ns", "a store to a shadow-buffer cache line the submitter's core owns",
               "assumption: an L1/L2 store hit");
  IOWALL_PARAM(Time, cache_line_transfer, "100 ns",
               "taking a shadow-buffer cache line another core wrote last (false sharing between adjacent queues)",
               "assumption: core-to-core cache line transfer on one socket, 50-150 ns");
  // Completions found by polling (every queue of a polled driver; a submitter's own).
  IOWALL_PARAM(Time, poll_delay, "100 ns", "CQ entry landing to a spinning poller seeing its phase tag",
               "seed 000: GPU polling completion ~100 ns");
};

using HostDriverFactory = std::function<std::unique_ptr<HostDriver>(const Params&)>;

// The registered drivers' names, sorted.
std::vector<std::string> host_driver_names();
// The driver `child` names, built from its parameters; InputError for a key it does not take.
std::unique_ptr<HostDriver> make_host_driver(const ChildParams& child);

namespace detail {
struct HostDriverRegistrar {
  HostDriverRegistrar(const char* name, const char* description, const char* header, HostDriverFactory f);
};
}  // namespace detail

// Registers a HostDriver subclass constructed from (const Params&) under NAME.
#define IOWALL_REGISTER_HOST_DRIVER(Class, NAME, DESCRIPTION)                                          \
  static const ::iowall::detail::HostDriverRegistrar IOWALL_CONCAT(iowall_reg_, __COUNTER__){             \
      NAME, DESCRIPTION, __FILE__,                                                                      \
      [](const ::iowall::Params& p) -> std::unique_ptr<::iowall::HostDriver> { return std::make_unique<Class>(p); }}

}  // namespace iowall
