#include "sim/run/io_workload.hpp"

#include <fmt/format.h>

#include "sim/config/registry.hpp"
#include "sim/run/workload_targets.hpp"

namespace iowall {

namespace {

// "durability" and "fsync_every": declared on every workload (so documented), allowed on
// writes only.
void read_durability(const Params& p, WorkloadConfig& c) {
  const bool given = !p.describing() && p.json().contains("durability");
  const std::string d = p.get_choice("durability", "none", {"none", "fsync_end", "fsync_each", "o_dsync"},
                                     "when writes are made durable: none (left in the page cache or the drive's "
                                     "cache), fsync_end (each thread fsyncs after its last write), fsync_each (an "
                                     "fsync after every fsync_every writes), o_dsync (every write returns durable)",
                                     "fio end_fsync, fsync=N, sync=dsync");
  const bool every_given = !p.describing() && p.json().contains("fsync_every");
  c.fsync_every = p.get_int("fsync_every", 1, 1, i64{1} << 40, "fsync_each: writes between fsyncs (fio's fsync=N)",
                            "fio fsync=N");
  if (p.describing()) return;
  if (given && !c.write())
    p.fail("durability", fmt::format("\"{}\" makes writes durable, and a {} workload only reads", d, c.kind));
  if (every_given && d != "fsync_each") p.fail("fsync_every", "applies with \"durability\": \"fsync_each\" only");
  c.durability_given = given;
  c.durability = d == "fsync_end"    ? WorkloadConfig::Durability::fsync_end
                 : d == "fsync_each" ? WorkloadConfig::Durability::fsync_each
                 : d == "o_dsync"    ? WorkloadConfig::Durability::o_dsync
                                     : WorkloadConfig::Durability::none;
}

}  // namespace

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
  c.batch_complete = p.get_int("batch_complete", 1, 1, 65536,
                               "completions a thread reaps before it submits again: 1 resubmits as each I/O "
                               "completes; n waits for n (or for all it has in flight), then fills its queue "
                               "again (qd_per thread only)",
                               "fio iodepth_batch_complete_min; fio's t/io_uring: batch_complete 32, at most the depth");
  c.misalign = p.get_bytes("misalign", "0 B", "added to every file offset: data not 4 KiB aligned in its file", "");
  const std::string targets = p.get_text("targets", "all_gpus", "target devices, comma-separated ids, or all_gpus", "");
  const std::string storage = p.get_text("storage", "local",
                                         "storage devices, comma-separated SSD ids striped round-robin, or local "
                                         "(the nearest SSDs of each target), all (every SSD, striped), or paired "
                                         "(target i reads SSD i, in declaration order)",
                                         "");
  read_durability(p, c);
  if (p.describing()) return c;
  if (!c.io_size.is_positive()) p.fail("io_size", "the I/O size must be positive");
  if (!c.size.is_positive()) p.fail("size", "the size must be positive");
  if (c.batch_complete > c.qd)
    p.fail("batch_complete", fmt::format("{} completions cannot be waited for with qd {}",
                                         c.batch_complete, c.qd));
  if (c.batch_complete > 1 && c.qd_per_device) p.fail("batch_complete", "applies with \"qd_per\": \"thread\" only");
  if (c.size < c.io_size * c.threads)
    p.fail("size", fmt::format("{} is less than one {} I/O for each of the {} threads", to_string(c.size),
                               to_string(c.io_size), c.threads));
  if (targets != "all_gpus") c.targets = split_list(targets);
  if (targets != "all_gpus" && c.targets.empty())
    p.fail("targets", "names no target (expected device ids, comma-separated, or all_gpus)");
  c.storage = split_list(storage);
  if (c.storage.empty()) p.fail("storage", "names no storage (expected SSD ids, comma-separated, or local, all or paired)");
  return c;
}

IoWorkload::IoWorkload(const Params& p, WorkloadEnv& env)
    : IoWorkload(read_workload(p), env.topology, env.path, env.ctx, env.file, env.pointer) {}

IoWorkload::IoWorkload(const WorkloadConfig& config, Topology& topology, DataPath& path, SimContext& ctx,
                       const std::string& file, const std::string& pointer)
    : config_(config), path_(path), ctx_(ctx), rng_(ctx.seed(), "workload") {
  targets_ = workload_targets(topology, config.targets, true, file, pointer);
  storage_ = workload_storage(topology, targets_, config.storage, {config.size, config.io_size, config.qd}, file,
                              pointer);
  const Bytes region = round_down(config.size / config.threads, config.io_size);
  for (std::size_t j = 0; j < targets_.size(); ++j) {
    results_.push_back(JobResult{targets_[j]->name(), Bytes(0), 0, Time(0), Time(0), {}, Time(0)});
    threads_left_.push_back(static_cast<int>(config.threads));
    busy_at_writes_.emplace_back();
    busy_at_done_.emplace_back();
    for (i64 t = 0; t < config.threads; ++t)
      // Each target reads its own data (its shard): regions do not overlap across jobs.
      threads_.push_back(Thread{static_cast<int>(j), region * (static_cast<i64>(j) * config.threads + t),
                                region, Bytes(0), Bytes(0), Bytes(0)});
    // Each thread cycles its I/Os through its own qd buffers (one set per device where the
    // depth is per device): the memory all of them land in.
    const i64 per_thread = config.qd * (config.qd_per_device ? static_cast<i64>(storage_[j].size()) : 1);
    buffers_ += config.io_size * per_thread * config.threads;
  }
}

void IoWorkload::start() {
  for (std::uint32_t t = 0; t < threads_.size(); ++t) {
    if (config_.qd_per_device) threads_[t].next_on_device.assign(storage_[threads_[t].job].size(), 0);
    refill(t);
  }
}

void IoWorkload::refill(std::uint32_t t) {
  Thread& th = threads_[t];
  if (config_.qd_per_device) {
    for (std::size_t d = 0; d < storage_[th.job].size(); ++d)
      for (i64 q = 0; q < config_.qd; ++q) issue_on(t, d);
  } else {
    for (i64 q = 0; q < config_.qd; ++q) issue(t);
  }
}

// fsync_each: a thread stops issuing once fsync_every writes wait for their fsync.
void IoWorkload::issue(std::uint32_t t) {
  Thread& th = threads_[t];
  if (th.issued >= th.region_size || th.syncing) return;
  if (config_.durability == WorkloadConfig::Durability::fsync_each && th.unsynced >= config_.fsync_every) return;
  const i64 ios_in_region = th.region_size / config_.io_size;
  Bytes offset = th.region_start + th.next_offset;
  if (config_.random()) offset = th.region_start + config_.io_size * static_cast<i64>(rng_.below(ios_in_region));
  th.next_offset += config_.io_size;
  // Stripe by offset: consecutive I/Os of a thread land on consecutive devices.
  const std::size_t devices = storage_[th.job].size();
  submit(t, offset, static_cast<std::size_t>((offset / config_.io_size) % static_cast<i64>(devices)));
}

void IoWorkload::issue_on(std::uint32_t t, std::size_t d) {
  Thread& th = threads_[t];
  if (th.issued >= th.region_size || th.syncing) return;
  if (config_.durability == WorkloadConfig::Durability::fsync_each && th.unsynced >= config_.fsync_every) return;
  // The region's I/O slots that stripe onto device d are d, d + n, d + 2n, ...
  const auto n = static_cast<i64>(storage_[th.job].size());
  const i64 slots = std::max<i64>(1, th.region_size / config_.io_size / n);
  const i64 k = config_.random() ? static_cast<i64>(rng_.below(static_cast<std::uint64_t>(slots)))
                           : th.next_on_device[d]++ % slots;
  submit(t, th.region_start + config_.io_size * (k * n + static_cast<i64>(d)), d);
}

void IoWorkload::submit(std::uint32_t t, Bytes offset, std::size_t d) {
  Thread& th = threads_[t];
  th.issued += config_.io_size;
  ++th.outstanding;
  ++th.unsynced;
  BlockStorage* storage = storage_[th.job][d];
  IoRequest io{config_.io_size, offset + config_.misalign, config_.write(), storage, targets_[th.job],
               static_cast<int>(t)};
  io.buffer_footprint = buffers_;
  const Time started = ctx_.now();
  const auto device = static_cast<std::uint32_t>(d);  // the capture fits the inline callback
  if (config_.durability == WorkloadConfig::Durability::o_dsync) {
    // O_DSYNC: the write returns once it is durable (a sync of what it wrote).
    path_.submit(io, [this, t, device, started] {
      path_.sync(*storage_[threads_[t].job][device], [this, t, device, started] { completed(t, device, started); },
                 SyncScope::data);
    });
    return;
  }
  path_.submit(io, [this, t, device, started] { completed(t, device, started); });
}

void IoWorkload::completed(std::uint32_t t, std::size_t d, Time started) {
  Thread& th = threads_[t];
  JobResult& r = results_[th.job];
  --th.outstanding;
  th.completed += config_.io_size;
  r.bytes += config_.io_size;
  ++r.ios;
  r.latency_ns.add(static_cast<std::uint64_t>((ctx_.now() - started).whole_ns()));
  const bool last = th.completed >= th.region_size;
  if (last && ctx_.now() >= r.writes_done) {
    r.writes_done = ctx_.now();
    if (reports_durability()) busy_at_writes_[th.job] = busy_snapshot(ctx_.stats(), ctx_.now());
  }
  const auto durability = config_.durability;
  if (config_.write() && (durability == WorkloadConfig::Durability::fsync_end ||
                          durability == WorkloadConfig::Durability::fsync_each)) {
    // fsync_each waits for the writes in flight, then syncs (fio with an asynchronous
    // engine); both sync once more after the last write, so every write ends durable.
    const bool group = durability == WorkloadConfig::Durability::fsync_each && th.unsynced >= config_.fsync_every;
    if (last || group) {
      if (th.outstanding == 0 && !th.syncing) {
        th.syncing = true;
        sync_from(t, 0, last);
      }
      return;
    }
  }
  if (last) return thread_done(t);
  if (config_.qd_per_device) return issue_on(t, d);
  if (config_.batch_complete == 1) return issue(t);
  // Batched reaping: the thread waits for batch_complete completions (or for all it has
  // in flight), then fills its queue again, one submission after another.
  if (++th.reaped < config_.batch_complete && th.outstanding > 0) return;
  th.reaped = 0;
  const i64 room = config_.qd - th.outstanding;
  for (i64 q = 0; q < room; ++q) issue(t);
}

void IoWorkload::sync_from(std::uint32_t t, std::size_t d, bool then_done) {
  Thread& th = threads_[t];
  if (d >= storage_[th.job].size()) {
    th.syncing = false;
    th.unsynced = 0;
    th.reaped = 0;  // the refill below starts a new batch
    if (then_done) return thread_done(t);
    return refill(t);
  }
  const auto device = static_cast<std::uint32_t>(d);
  // fio's end_fsync and fsync=N call fsync().
  path_.sync(*storage_[th.job][d], [this, t, device, then_done] { sync_from(t, device + 1, then_done); },
             SyncScope::file);
}

void IoWorkload::thread_done(std::uint32_t t) {
  JobResult& r = results_[threads_[t].job];
  const Time now = ctx_.now();
  if (r.first_done == Time(0) || now < r.first_done) r.first_done = now;
  r.last_done = std::max(r.last_done, now);
  if (--threads_left_[threads_[t].job] == 0 && reports_durability())
    busy_at_done_[threads_[t].job] = busy_snapshot(ctx_.stats(), now);
}

std::vector<std::vector<PhaseSpan>> IoWorkload::phases() const {
  std::vector<std::vector<PhaseSpan>> out;
  const auto d = config_.durability;
  if (!reports_durability() || (d != WorkloadConfig::Durability::fsync_end && d != WorkloadConfig::Durability::fsync_each))
    return out;
  for (std::size_t j = 0; j < results_.size(); ++j) {
    const JobResult& r = results_[j];
    out.push_back({PhaseSpan{"write", Time(0), r.writes_done, {}, {}, {}, busy_at_writes_[j]},
                   PhaseSpan{"fsync", r.writes_done, r.last_done, {}, {}, busy_at_writes_[j], busy_at_done_[j]}});
  }
  return out;
}

Workload::Window IoWorkload::io_window() const {
  Window w;
  for (const Thread& t : threads_) w.slots += config_.qd * (config_.qd_per_device ? static_cast<i64>(storage_[t.job].size()) : 1);
  w.what = fmt::format("{} thread{} x QD {}{}", threads_.size(), threads_.size() == 1 ? "" : "s", config_.qd,
                       config_.qd_per_device ? " per device" : "");
  return w;
}

std::int64_t IoWorkload::total_bytes() const {
  std::int64_t n = 0;
  for (const Thread& t : threads_) n += t.region_size.count();
  return n;
}

std::int64_t IoWorkload::done_bytes() const {
  std::int64_t n = 0;
  for (const JobResult& r : results_) n += r.bytes.count();
  return n;
}

std::string IoWorkload::pending() const {
  int left = 0;
  for (int n : threads_left_) left += n;
  return left ? fmt::format("{} threads not finished", left) : std::string{};
}

}  // namespace iowall

namespace iowall {
namespace {
void describe_io(const Params& p) { read_workload(p); }
}  // namespace
IOWALL_REGISTER_WORKLOAD(IoWorkload, "sequential_read", "gdsio-style sequential reads", describe_io);
IOWALL_REGISTER_WORKLOAD(IoWorkload, "random_read", "gdsio-style random reads", describe_io);
IOWALL_REGISTER_WORKLOAD(IoWorkload, "sequential_write", "gdsio-style sequential writes, durable as asked",
                         describe_io);
IOWALL_REGISTER_WORKLOAD(IoWorkload, "random_write", "gdsio-style random writes, durable as asked", describe_io);
}  // namespace iowall
