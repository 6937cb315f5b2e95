// The host NVMe drivers an nvme_ssd can be driven by (models/nvme/host_driver.hpp):
// interrupt-driven (MSI-X, coalescing, shared vectors) or polled, and their registry.
#include <map>

#include <fmt/format.h>

#include "models/nvme/host_driver.hpp"

namespace iowall {

HostDriver::HostDriver(const Params& p) : ParamSet(p) {}

NvmeQueueConfig HostDriver::queue_config() const {
  NvmeQueueConfig q;
  q.io_queues = static_cast<int>(io_queues);
  q.queue_entries = queue_entries;
  q.cid_bits = static_cast<int>(cid_bits);
  q.doorbell_batch = static_cast<int>(doorbell_batch);
  q.poll_delay = poll_delay;
  q.doorbells.shadow = shadow_doorbells;
  q.doorbells.mmio = mmio_doorbell_cost;
  q.doorbells.shadow_store = shadow_store_cost;
  q.doorbells.line_transfer = cache_line_transfer;
  return q;
}

namespace {

const char kDomain[] = "driver";

struct Registered {
  HostDriverFactory factory;
};
std::map<std::string, Registered>& registered() {
  static std::map<std::string, Registered> r;
  return r;
}

// Completions by MSI-X interrupt: the controller aggregates completions (by count and
// time) before it writes the vector's message; the handler runs an interrupt latency
// later, checks every CQ that shares its vector and reaps them all. Queues whose
// submitter polls (io_uring IOPOLL, SPDK, a GPU's threads) take no interrupt.
class IrqDriver final : public HostDriver {
public:
  explicit IrqDriver(const Params& p) : HostDriver(p) {
    if (!p.describing() && coalesce_count > 1 && !coalesce_time.is_positive())
      p.fail("coalesce_time", "interrupt coalescing by count needs an aggregation time, or the last completions wait forever");
  }
  NvmeQueueConfig queue_config() const override {
    NvmeQueueConfig q = HostDriver::queue_config();
    q.interrupt_latency = interrupt_latency;
    q.coalesce_count = static_cast<int>(coalesce_count);
    q.coalesce_time = coalesce_time;
    q.msix_vectors = static_cast<int>(msix_vectors);
    q.cq_scan_cost = cq_scan_cost;
    return q;
  }

  IOWALL_PARAM(Time, interrupt_latency, "1 us", "MSI-X write to the completion handler running (delivery, IRQ entry)",
               "seed 000: CPU + MSI-X completion 1-5 us (lower end; handler CPU time is the host stack's)");
  IOWALL_PARAM_INT(msix_vectors, 0, 0, 2048,
                   "MSI-X vectors the host allocates; fewer than io_queues makes queues share them (0: one per queue)",
                   "PCIe base spec: an MSI-X table holds at most 2,048 entries; Linux: one vector per CPU");
  IOWALL_PARAM(Time, cq_scan_cost, "100 ns",
               "the interrupt handler checking one completion queue's phase tag (a cache miss on the CQ head)",
               "assumption: one DRAM access per CQ scanned");
  IOWALL_PARAM_INT(coalesce_count, 1, 1, 256, "interrupt aggregation threshold (completions per interrupt)",
                   "NVMe base spec 2.0, Interrupt Coalescing feature (FID 08h)");
  IOWALL_PARAM(Time, coalesce_time, "0 us", "interrupt aggregation time (spec unit 100 us); 0: none",
               "NVMe base spec 2.0, Interrupt Coalescing feature (FID 08h)");
};
IOWALL_REGISTER_HOST_DRIVER(IrqDriver, host_drivers::irq,
                            "the host learns of completions by MSI-X interrupt (coalesced by count and time, vectors "
                            "shared when fewer than queues); queues whose submitter polls take none. Source: NVMe base "
                            "spec 2.0, 3.5; Linux nvme's default interrupt-driven queues");

// Every completion queue polled: a spinning poller sees a new entry's phase tag a poll
// delay after it lands, with no interrupt at all (SPDK's driver; Linux with every queue a
// poll queue).
class PolledDriver final : public HostDriver {
public:
  explicit PolledDriver(const Params& p) : HostDriver(p) {}
  NvmeQueueConfig queue_config() const override {
    NvmeQueueConfig q = HostDriver::queue_config();
    q.poll_every_queue = true;
    return q;
  }
};
IOWALL_REGISTER_HOST_DRIVER(PolledDriver, host_drivers::polled,
                            "the host polls every completion queue (no interrupts): a new entry is seen a poll_delay "
                            "after it lands. Source: NVMe base spec 2.0, 3.5 (completion by polling); SPDK's user-space "
                            "driver");

}  // namespace

std::vector<std::string> host_driver_names() {
  std::vector<std::string> out;
  for (const auto& [name, r] : registered()) out.push_back(name);
  return out;
}

std::unique_ptr<HostDriver> make_host_driver(const ChildParams& child) {
  const auto it = registered().find(child.model);
  if (it == registered().end())
    child.params.fail("", fmt::format("unknown host driver \"{}\" (known: {})", child.model,
                                      fmt::join(host_driver_names(), ", ")));
  auto driver = it->second.factory(child.params);
  if (const ModelEntry* e = ModelRegistry::instance().find(kDomain, child.model))
    ModelRegistry::instance().built(*e, child.params);
  child.params.check_all_used({});
  return driver;
}

namespace detail {

HostDriverRegistrar::HostDriverRegistrar(const char* name, const char* description, const char* header,
                                         HostDriverFactory f) {
  registered()[name] = {f};
  ModelEntry e;
  e.domain = kDomain;
  e.name = name;
  e.description = description;
  e.header = header;
  e.describe = [f] {
    const Params p = Params::describe();
    (void)f(p);
    return ModelDoc{p.declared(), {}, {}};
  };
  ModelRegistry::instance().add(std::move(e));
}

}  // namespace detail
}  // namespace iowall
