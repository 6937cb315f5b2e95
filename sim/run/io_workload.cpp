#include "sim/run/io_workload.hpp"

#include <fmt/format.h>

namespace iowall {

WorkloadConfig read_workload(const Params& p) {
  WorkloadConfig c;
  c.kind = p.get_choice("kind", "sequential_read", {"sequential_read", "random_read", "sequential_write", "random_write"},
                        "access pattern and direction", "gdsio -I");
  c.size = p.get_bytes("size", "1 GiB", "bytes each target moves in all (gdsio -s)", "");
  c.io_size = p.get_bytes("io_size", "1 MiB", "size of one I/O (gdsio -i)", "");
  c.threads = p.get_int("threads", 1, 1, 1 << 20, "worker threads per target (gdsio -w; GPU threads for gpu_initiated)",
                        "BaM (ASPLOS'23) benchmarks run 262,144 GPU threads");
  c.qd = p.get_int("qd", 1, 1, 65536, "I/Os each thread keeps in flight (on each device with qd_per device)", "");
  c.qd_per_device = p.get_choice("qd_per", "thread", {"thread", "device"},
                                 "thread: qd I/Os in flight per thread over its devices together (gdsio, fio on one "
                                 "file); device: qd on each of the thread's devices (SPDK perf -q, fio with a job per "
                                 "device)",
                                 "gdsio -w/-q; SPDK nvme perf: queue depth per namespace") == "device";
  c.misalign = p.get_bytes("misalign", "0 B", "added to every file offset: data not 4 KiB aligned in its file", "");
  const std::string targets = p.get_text("targets", "all_gpus", "target devices, comma-separated ids, or all_gpus", "");
  const std::string storage = p.get_text("storage", "local",
                                         "storage devices, comma-separated SSD ids striped round-robin, or local "
                                         "(the nearest SSDs of each target), all (every SSD, striped), or paired "
                                         "(target i reads SSD i, in declaration order)",
                                         "");
  if (p.describing()) return c;
  if (c.io_size.n <= 0) p.fail("io_size", "the I/O size must be positive");
  if (c.size.n <= 0) p.fail("size", "the size must be positive");
  if (c.size.n < c.io_size.n * c.threads)
    p.fail("size", fmt::format("{} is less than one {} I/O for each of the {} threads", to_string(c.size),
                               to_string(c.io_size), c.threads));
  if (targets != "all_gpus") c.targets = split_list(targets);
  if (targets != "all_gpus" && c.targets.empty())
    p.fail("targets", "names no target (expected device ids, comma-separated, or all_gpus)");
  c.storage = split_list(storage);
  if (c.storage.empty()) p.fail("storage", "names no storage (expected SSD ids, comma-separated, or local, all or paired)");
  return c;
}

IoWorkload::IoWorkload(const WorkloadConfig& config, Topology& topology, DataPath& path, SimContext& ctx,
                       const std::string& file, const std::string& pointer)
    : config_(config), path_(path), ctx_(ctx), rng_(ctx.seed(), "workload") {
  if (config.targets.empty()) {
    targets_ = topology.devices_of("gpu");
    if (targets_.empty()) throw InputError(file, pointer + "/targets", "the topology has no GPU to target");
  } else {
    for (const auto& id : config.targets) {
      Device& d = topology.device(id, file, pointer + "/targets");
      // GPUs, or host memory for cpu_only.
      if (d.model() != "gpu" && d.model() != "dram")
        throw InputError(file, pointer + "/targets", fmt::format("{} is a {}, not a gpu (or dram)", id, d.model()));
      targets_.push_back(&d);
    }
  }
  // The drives are the topology's block storage devices (sim/core/block_storage.hpp).
  const std::vector<BlockStorage*> ssds = topology.block_storage();
  if (ssds.empty()) throw InputError(file, pointer + "/storage", "the topology has no block storage (nvme_ssd) to read from");
  for (Device* t : targets_) {
    std::vector<BlockStorage*> list;
    const bool local = config.storage.size() == 1 && config.storage[0] == "local";
    const bool all = config.storage.size() == 1 && config.storage[0] == "all";
    const bool paired = config.storage.size() == 1 && config.storage[0] == "paired";
    if (paired) {
      list.push_back(ssds[storage_.size() % ssds.size()]);
    } else if (local) {
      // The drives with the shortest route to this target (those under its switch); drives
      // of another node (an NVMe-oF target) are not local to it.
      std::size_t best = SIZE_MAX;
      for (BlockStorage* s : ssds)
        if (topology.connected(s->device(), *t)) best = std::min(best, topology.route(s->device(), *t).devices.size());
      for (BlockStorage* s : ssds)
        if (topology.connected(s->device(), *t) && topology.route(s->device(), *t).devices.size() == best)
          list.push_back(s);
      if (list.empty())
        throw InputError(file, pointer + "/storage",
                         fmt::format("no SSD is local to {}: name the storage devices", t->name()));
    } else if (all) {
      list = ssds;
    } else {
      for (const auto& id : config.storage) list.push_back(&topology.block_storage(id, file, pointer + "/storage"));
    }
    // The data each target moves must fit on the drives it uses.
    i64 capacity = 0;
    for (BlockStorage* s : list) capacity += s->limits().capacity.n;
    if (config.size.n > capacity)
      throw InputError(file, pointer + "/size",
                       fmt::format("{} does not fit on the {} drive(s) of {} ({} in all)", to_string(config.size),
                                   list.size(), t->name(), to_string(Bytes(capacity))));
    for (BlockStorage* s : list) {
      const BlockLimits& limits = s->limits();
      if (config.qd > limits.queue_depth)
        throw InputError(file, pointer + "/qd",
                         fmt::format("queue depth {} is above {}'s limit of {} per queue pair (queue entries - 1, or "
                                     "CIDs)",
                                     config.qd, s->device().name(), limits.queue_depth));
      if (config.io_size.n % limits.lba_size.n != 0)
        throw InputError(file, pointer + "/io_size",
                         fmt::format("{} is not a multiple of {}'s LBA size {}", to_string(config.io_size),
                                     s->device().name(), to_string(limits.lba_size)));
    }
    storage_.push_back(std::move(list));
  }
  const i64 region = config.size.n / config.threads / config.io_size.n * config.io_size.n;
  for (std::size_t j = 0; j < targets_.size(); ++j) {
    results_.push_back(JobResult{targets_[j]->name(), Bytes(0), 0, Time(0), Time(0), {}});
    threads_left_.push_back(static_cast<int>(config.threads));
    for (i64 t = 0; t < config.threads; ++t)
      // Each target reads its own data (its shard): regions do not overlap across jobs.
      threads_.push_back(Thread{static_cast<int>(j), Bytes((static_cast<i64>(j) * config.threads + t) * region),
                                Bytes(region), Bytes(0), Bytes(0), Bytes(0)});
  }
}

void IoWorkload::start() {
  for (std::uint32_t t = 0; t < threads_.size(); ++t) {
    if (config_.qd_per_device) {
      threads_[t].next_on_device.assign(storage_[threads_[t].job].size(), 0);
      for (std::size_t d = 0; d < storage_[threads_[t].job].size(); ++d)
        for (i64 q = 0; q < config_.qd; ++q) issue_on(t, d);
    } else {
      for (i64 q = 0; q < config_.qd; ++q) issue(t);
    }
  }
}

void IoWorkload::issue(std::uint32_t t) {
  Thread& th = threads_[t];
  if (th.issued >= th.region_size) return;
  const i64 ios_in_region = th.region_size.n / config_.io_size.n;
  Bytes offset = th.region_start + th.next_offset;
  if (config_.random()) offset = th.region_start + config_.io_size * static_cast<i64>(rng_.below(ios_in_region));
  th.next_offset += config_.io_size;
  // Stripe by offset: consecutive I/Os of a thread land on consecutive devices.
  const std::size_t devices = storage_[th.job].size();
  submit(t, offset, static_cast<std::size_t>((offset.n / config_.io_size.n) % static_cast<i64>(devices)));
}

void IoWorkload::issue_on(std::uint32_t t, std::size_t d) {
  Thread& th = threads_[t];
  if (th.issued >= th.region_size) return;
  // The region's I/O slots that stripe onto device d are d, d + n, d + 2n, ...
  const auto n = static_cast<i64>(storage_[th.job].size());
  const i64 slots = std::max<i64>(1, th.region_size.n / config_.io_size.n / n);
  const i64 k = config_.random() ? static_cast<i64>(rng_.below(static_cast<std::uint64_t>(slots)))
                           : th.next_on_device[d]++ % slots;
  submit(t, th.region_start + config_.io_size * (k * n + static_cast<i64>(d)), d);
}

void IoWorkload::submit(std::uint32_t t, Bytes offset, std::size_t d) {
  Thread& th = threads_[t];
  th.issued += config_.io_size;
  ++th.outstanding;
  IoRequest io{config_.io_size, offset + config_.misalign, config_.write(), storage_[th.job][d], targets_[th.job],
               static_cast<int>(t)};
  const Time started = ctx_.now();
  const auto device = static_cast<std::uint32_t>(d);  // the capture fits the inline callback
  path_.submit(io, [this, t, device, started] { completed(t, device, started); });
}

void IoWorkload::completed(std::uint32_t t, std::size_t d, Time started) {
  Thread& th = threads_[t];
  JobResult& r = results_[th.job];
  --th.outstanding;
  th.completed += config_.io_size;
  r.bytes += config_.io_size;
  ++r.ios;
  r.latency_ns.add(static_cast<std::uint64_t>((ctx_.now() - started).ps / 1000));
  if (th.completed >= th.region_size) {
    const Time now = ctx_.now();
    if (r.first_done == Time(0) || now < r.first_done) r.first_done = now;
    r.last_done = std::max(r.last_done, now);
    --threads_left_[th.job];
    return;
  }
  if (config_.qd_per_device) issue_on(t, d);
  else issue(t);
}

std::int64_t IoWorkload::total_bytes() const {
  std::int64_t n = 0;
  for (const Thread& t : threads_) n += t.region_size.n;
  return n;
}

std::int64_t IoWorkload::done_bytes() const {
  std::int64_t n = 0;
  for (const JobResult& r : results_) n += r.bytes.n;
  return n;
}

std::string IoWorkload::pending() const {
  int left = 0;
  for (int n : threads_left_) left += n;
  return left ? fmt::format("{} threads not finished", left) : std::string{};
}

}  // namespace iowall
