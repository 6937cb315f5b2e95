// The three ways an nvme_ssd's controller serves reads (models/ssd/read_service.hpp),
// each with its closed-form ceiling; the registry of their names; and the drive steps
// they compose.
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "models/ssd/nvme_ssd.hpp"
#include "models/ssd/read_service.hpp"

namespace iowall {

// The drive's steps, for the services.
Server& ReadService::controller() const { return *drive_.controller_; }
Time ReadService::processing() const { return interval(drive_.max_iops); }
Time ReadService::transfer(std::uint32_t cmd) const {
  return transfer_time(drive_.commands_[cmd].bytes, drive_.read_bandwidth);
}
int ReadService::queue_of(std::uint32_t cmd) const { return drive_.queues_->queue_of(cmd); }
void ReadService::read_media(std::uint32_t cmd, Time from) const { drive_.read_media(cmd, from); }
void ReadService::deliver(std::uint32_t cmd) const { drive_.deliver(cmd); }
void ReadService::complete_no_earlier(std::uint32_t cmd, Time t) const { drive_.commands_[cmd].not_before = t; }
Time ReadService::wake_latency() const { return drive_.lumped(drive_.read_latency); }
SimContext& ReadService::ctx() const { return drive_.ctx(); }
Time ReadService::now() const { return drive_.now(); }

namespace {

struct RegisteredReadService {
  std::string description;
  ReadServiceFactory factory;
  ReadCeilingForm ceiling;
};
std::map<std::string, RegisteredReadService>& registered_read_services() {
  static std::map<std::string, RegisteredReadService> r;
  return r;
}

// A physical SSD: command processing (the IOPS ceiling) overlaps earlier commands' data
// transfer. A read books the media for when its processing ends as soon as it starts
// (no event of its own).
class OverlappedReads final : public ReadService {
public:
  using ReadService::ReadService;
  void serve(std::uint32_t cmd) override {
    controller().submit(
        processing(), Time(0), [this, cmd](Time, Time end) { read_media(cmd, end); }, {}, queue_of(cmd));
  }
  // Each read alone takes its CPU, one command's processing, the latency and its data's
  // transfer; in flight together they are capped by the data path and the command rate.
  static double ceiling(const ReadCeilingInputs& d, double s, int n) {
    const double commands = std::ceil(s / d.mdts_bytes);
    const double alone = d.cpu_s + 1.0 / d.max_iops + d.latency_s + s * d.byte_s();
    return std::min({n * s / alone, 1.0 / d.byte_s(), d.max_iops * s / commands});
  }
  static constexpr char kFormula[] =
      "throughput = min(concurrency * size / (cpu + 1/max_iops + read_latency + size/read_bandwidth), "
      "read_bandwidth, max_iops * size / commands)";
};
IOWALL_REGISTER_READ_SERVICE(OverlappedReads, read_services::overlapped,
                             "command processing overlaps earlier commands' data transfer, as in a physical SSD: "
                             "each read holds the controller for 1/max_iops, then its media access and data follow",
                             {{"max_iops", "a read holds the controller for 1/max_iops (the IOPS ceiling)"}});

// An emulated device whose one I/O thread serves requests in turn (a hypervisor's
// virtio-blk backend): the controller moves a read's data before it takes the next
// command. The data leaves once the command is processed and the latency has passed;
// the controller stays busy until the transfer that follows could have ended.
class SerialReads final : public ReadService {
public:
  using ReadService::ReadService;
  void serve(std::uint32_t cmd) override {
    const Time p = processing();
    controller().submit(
        p + transfer(cmd), Time(0), [this, cmd, p](Time start, Time) { read_media(cmd, start + p); }, {},
        queue_of(cmd));
  }
  // As overlapped alone; together, one command after another at 1/max_iops + size/bandwidth each.
  static double ceiling(const ReadCeilingInputs& d, double s, int n) {
    const double commands = std::ceil(s / d.mdts_bytes);
    const double alone = d.cpu_s + 1.0 / d.max_iops + d.latency_s + s * d.byte_s();
    return std::min(n * s / alone, s / (commands / d.max_iops + s * d.byte_s()));
  }
  static constexpr char kFormula[] =
      "throughput = min(concurrency * size / (cpu + 1/max_iops + read_latency + size/read_bandwidth), "
      "size / (commands/max_iops + size/read_bandwidth))";
};
IOWALL_REGISTER_READ_SERVICE(
    SerialReads, read_services::serial,
    "the controller moves a read's data before it takes the next command: each read holds it for 1/max_iops + "
    "size/read_bandwidth, in series (an emulated device whose one I/O thread serves requests in turn, as a "
    "hypervisor's virtio-blk backend does). Source: calibration sweeps of the project's VMs, whose concurrent "
    "ceilings of 4 KiB-1 MiB reads follow one per-request cost plus size over one bandwidth "
    "(reports/calibration/README.md)",
    {{"max_iops", "a read holds the controller for 1/max_iops before its data moves"},
     {"read_bandwidth", "and then for size/read_bandwidth while its data moves"}});

// Serial reads served in batches (a virtio backend's loop: one notification and one
// interrupt per pass). The device wakes a latency after a read arrives to find it idle,
// serves every read waiting then, one after another, completes them together at the
// pass's end, and goes straight on with the reads that came meanwhile.
class BatchedReads final : public ReadService {
public:
  using ReadService::ReadService;
  // The I/Os in flight form one batch: one wake-up (the latency) for all of them, then
  // each one's commands and data in series.
  static double ceiling(const ReadCeilingInputs& d, double s, int n) {
    const double commands = std::ceil(s / d.mdts_bytes);
    return n * s / (d.cpu_s + d.latency_s + n * (commands / d.max_iops + s * d.byte_s()));
  }
  static constexpr char kFormula[] =
      "throughput = concurrency * size / (cpu + read_latency + concurrency * (commands/max_iops + "
      "size/read_bandwidth)): one wake-up per batch of the I/Os in flight";
  void serve(std::uint32_t cmd) override {
    waiting_.push_back(cmd);
    if (busy_) return;
    busy_ = true;  // the device sleeps: this read's notification wakes it
    ctx().at(now() + wake_latency(), [this] { pass(); });
  }

private:
  void pass() {
    // Every read waiting is served now, one after another; each one's data leaves once
    // its command is processed, and all complete when the last one's transfer could have
    // ended.
    std::vector<std::uint32_t> batch;
    batch.swap(waiting_);
    Time t = now();
    for (std::uint32_t cmd : batch) {
      const Time p = processing();
      ctx().at(t + p, [this, cmd] { deliver(cmd); });
      t = t + p + transfer(cmd);
    }
    for (std::uint32_t cmd : batch) complete_no_earlier(cmd, t);
    controller().submit(t - now(), Time(0), {});  // busy for the whole pass (statistics, limiter)
    ctx().at(t, [this] {
      if (waiting_.empty())
        busy_ = false;  // asleep until the next notification
      else
        pass();  // the reads that came meanwhile, without a new wake-up
    });
  }
  std::vector<std::uint32_t> waiting_;  // reads that came since the pass began
  bool busy_ = false;
};
IOWALL_REGISTER_READ_SERVICE(
    BatchedReads, read_services::batched,
    "serial reads served in batches: the device wakes read_latency after a read arrives to find it idle, serves "
    "every read waiting then one after another (1/max_iops + size/read_bandwidth each), completes them together at "
    "the batch's end, and goes straight on with the reads that came meanwhile (a virtio backend's loop: one "
    "notification and one interrupt per pass). Source: reports/calibration/two-threads.md: on the project's VMs, "
    "virtio interrupts per I/O were 1/(I/Os in flight), and two threads at QD1 ran as one thread at QD2",
    {{"read_latency", "the wake-up: from a read reaching an idle device to its pass starting (once per pass)"},
     {"latency_sigma", "spread of the wake-up"},
     {"max_iops", "each read of a pass takes 1/max_iops to process"},
     {"read_bandwidth", "and size/read_bandwidth to move its data before the next one starts"}});

}  // namespace

std::vector<std::string> read_service_names() {
  std::vector<std::string> out;
  for (const auto& [name, r] : registered_read_services()) out.push_back(name);
  return out;
}

std::unique_ptr<ReadService> make_read_service(const std::string& name, NvmeSsd& drive) {
  const auto it = registered_read_services().find(name);
  return it == registered_read_services().end() ? nullptr : it->second.factory(drive);
}

const ReadCeilingForm& read_ceiling(const std::string& name) {
  const auto it = registered_read_services().find(name);
  if (it == registered_read_services().end()) throw std::logic_error("no read service \"" + name + "\"");
  return it->second.ceiling;
}

namespace detail {

ReadServiceRegistrar::ReadServiceRegistrar(const char* name, const char* description, const char* header,
                                           ReadServiceFactory f, ReadCeilingForm ceiling,
                                           std::vector<std::pair<std::string, std::string>> uses) {
  registered_read_services()[name] = {description, std::move(f), ceiling};
  ModelEntry e;
  e.domain = "read_service";
  e.name = name;
  e.description = description;
  e.header = header;
  // Its parameters are the drive's: documented here with their role in this service and
  // the drive's own unit, default and source.
  e.describe = [uses] {
    ModelDoc doc;
    const ModelEntry* drive = ModelRegistry::instance().find("device", "nvme_ssd");
    if (!drive) return doc;
    const ModelDoc d = drive->describe();
    for (const auto& [name, role] : uses) {
      const std::string key = name;  // a lambda may not capture a structured binding (clang 14)
      const auto p = std::find_if(d.params.begin(), d.params.end(), [&](const ParamInfo& q) { return q.name == key; });
      if (p == d.params.end())
        throw std::logic_error("a read service uses \"" + key + "\", which nvme_ssd does not declare");
      ParamInfo q = *p;
      q.description = role + " (nvme_ssd: " + p->description + ")";
      doc.params.push_back(q);
    }
    return doc;
  };
  ModelRegistry::instance().add(std::move(e));
}

}  // namespace detail
}  // namespace iowall
