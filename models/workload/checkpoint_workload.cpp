#include "models/workload/checkpoint_workload.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "models/workload/checkpoint_rank.hpp"
#include "sim/config/registry.hpp"
#include "sim/core/error.hpp"
#include "sim/core/slot_pool.hpp"
#include "sim/run/workload_targets.hpp"

namespace iowall {

CheckpointWorkload::CheckpointWorkload(const CheckpointConfig& config, WorkloadEnv& env)
    : config_(config), env_(env), gpu_buffers_(env.path.takes_gpu_buffers()) {
  if (config.reader == CheckpointConfig::Reader::mapped && !env.path.maps_files())
    throw InputError(env.file, env.pointer + "/reader",
                     "mapped: the file is read through the page cache; the scenario's path has none (use cpu_cached)");
  const std::vector<Device*> targets = workload_targets(env.topology, config.targets, false, env.file, env.pointer);
  const auto storage = workload_storage(env.topology, targets, config.storage, {config.size, config.io_size, config.qd},
                                        env.file, env.pointer);
  const Bytes region = round_up(config.size, config.io_size);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    auto& gpu = static_cast<Gpu&>(*targets[i]);
    auto& dram = static_cast<Dram&>(env.paths.nearest(gpu, "dram"));
    auto& cpu = static_cast<CpuSocket&>(env.paths.nearest(dram, "cpu_socket"));
    ranks_.push_back(std::make_unique<Rank>(static_cast<int>(i), gpu, dram, cpu, env.paths));
    if (config.reader == CheckpointConfig::Reader::mapped)
      sources_.push_back(std::make_unique<MappedSource>(*this, static_cast<int>(i)));
    ranks_.back()->storage = storage[i];
    ranks_.back()->base = region * static_cast<i64>(i);
    if (config.pass) ranks_.back()->pass_rate = config.pass_rate.is_positive() ? config.pass_rate : cpu.crc32_per_core;
    results_.push_back(JobResult{gpu.name(), Bytes(0), 0, Time(0), Time(0), {}, Time(0)});
  }
  left_ = static_cast<int>(ranks_.size());
}

CheckpointWorkload::~CheckpointWorkload() = default;

void CheckpointWorkload::start() {
  for (auto& r : ranks_) {
    if (config_.save) save_start(r->index);
    else load_start(r->index);
  }
}

std::string CheckpointWorkload::pending() const {
  return left_ > 0 ? fmt::format("{} ranks not finished", left_) : std::string{};
}

std::vector<std::vector<PhaseSpan>> CheckpointWorkload::phases() const {
  std::vector<std::vector<PhaseSpan>> out;
  for (const auto& r : ranks_) out.push_back(r->phases);
  return out;
}

HostMemoryKind CheckpointWorkload::copy_memory(Bytes bytes) const {
  // glibc keeps a freed block below its mmap threshold on its heap, where the next save's
  // copy of that size finds it mapped; a larger block was mmap()ed and unmapped when freed.
  if (config_.allocator_reuse_max)
    return bytes <= *config_.allocator_reuse_max ? HostMemoryKind::pageable : HostMemoryKind::pageable_fresh;
  return config_.host_memory;
}

Bytes CheckpointWorkload::tensor_start(i64 t) const { return config_.size / config_.tensors * t; }

Bytes CheckpointWorkload::tensor_bytes(i64 t) const {
  return (t + 1 < config_.tensors ? tensor_start(t + 1) : config_.size) - tensor_start(t);
}

Bytes CheckpointWorkload::tensor_end(Bytes offset) const {
  // read_checkpoint holds at least a byte per tensor.
  const i64 t = std::min(offset.n / tensor_start(1).n + 1, config_.tensors);
  return t < config_.tensors ? tensor_start(t) : config_.size;
}

void CheckpointWorkload::begin_phase(Rank& r, const char* name) {
  r.phases.push_back({name, env_.ctx.now(), env_.ctx.now(), r.thread.name(), Time{},
                      busy_snapshot(env_.ctx.stats(), env_.ctx.now()), {}});
  r.busy_at_start = r.thread.busy() + env_.path.thread_cpu(r.index);
}

void CheckpointWorkload::end_phase(Rank& r) {
  PhaseSpan& p = r.phases.back();
  p.end = env_.ctx.now();
  p.thread_busy = r.thread.busy() + env_.path.thread_cpu(r.index) - r.busy_at_start;
  p.busy_end = busy_snapshot(env_.ctx.stats(), env_.ctx.now());
}

// The next piece of the rank's file: up to io_size, whole logical blocks (the last piece
// is padded to the drive's block, as O_DIRECT needs).
IoRequest CheckpointWorkload::request(Rank& r, Bytes offset, Bytes bytes, bool write) {
  BlockStorage* s = r.storage[r.pieces % r.storage.size()];
  const Bytes size = round_up(bytes, std::max(Bytes(1), s->limits().lba_size));
  IoRequest io{size, r.base + offset, write, s, gpu_buffers_ ? static_cast<Device*>(r.gpu) : r.dram, r.index};
  if (write && config_.new_file) io.blocks = IoRequest::Blocks::new_file;
  io.file_end = r.base + round_up(config_.size, std::max(Bytes(1), s->limits().lba_size));
  ++r.pieces;
  return io;
}

// --- saving ---

void CheckpointWorkload::save_start(int rank) {
  Rank& r = *ranks_[rank];
  if (gpu_buffers_) {  // cuFile writes from GPU memory: no host copy
    begin_phase(r, "d2h");
    end_phase(r);
    r.ready = config_.size;
    begin_phase(r, "serialize_write");
    return write_pump(rank);
  }
  if (config_.overlapped) {
    begin_phase(r, "d2h_write");
    r.free_buffers = static_cast<int>(config_.buffers);
    return copy_next_buffer(rank);
  }
  begin_phase(r, "d2h");
  copy_next_tensor(rank);
}

void CheckpointWorkload::copy_next_tensor(int rank) {
  Rank& r = *ranks_[rank];
  if (r.tensor == config_.tensors) {
    end_phase(r);
    r.ready = config_.size;
    begin_phase(r, "serialize_write");
    return write_pump(rank);
  }
  const Bytes bytes = tensor_bytes(r.tensor++);
  r.copies.copy(bytes, false, copy_memory(bytes), config_.huge_pages, [this, rank] { copy_next_tensor(rank); });
}

void CheckpointWorkload::copy_next_buffer(int rank) {
  Rank& r = *ranks_[rank];
  const Bytes offset = config_.buffer * r.buffer_next;
  if (r.copying || r.free_buffers == 0 || offset >= config_.size) return;
  r.copying = true;
  --r.free_buffers;
  ++r.buffer_next;
  const Bytes bytes = std::min(config_.buffer, config_.size - offset);
  r.copies.copy(bytes, false, config_.host_memory, config_.huge_pages, [this, rank, bytes] {
    Rank& q = *ranks_[rank];
    q.copying = false;
    q.ready += bytes;
    write_pump(rank);
    copy_next_buffer(rank);
  });
}

void CheckpointWorkload::write_pump(int rank) {
  Rank& r = *ranks_[rank];
  const bool each = config_.durability == CheckpointConfig::Durability::fsync_each;
  while (!r.passing && !r.syncing && r.inflight < config_.qd && r.issued < r.ready &&
         !(each && r.unsynced >= config_.fsync_every)) {
    const Bytes bytes = std::min(config_.io_size, r.ready - r.issued);
    const Bytes offset = r.issued;
    r.issued += bytes;
    ++r.inflight;
    ++r.unsynced;
    if (r.pass_rate.is_positive()) {
      // The serializer's pass over the piece, on the rank's thread, before its write.
      r.passing = true;
      r.passed = bytes;
      r.copies.cpu_pass(bytes, r.pass_rate, [this, rank, offset] {
        Rank& q = *ranks_[rank];
        q.passing = false;
        write_piece(rank, offset, q.passed);
        write_pump(rank);
      });
      return;
    }
    write_piece(rank, offset, bytes);
  }
}

void CheckpointWorkload::write_piece(int rank, Bytes offset, Bytes bytes) {
  Rank& r = *ranks_[rank];
  const IoRequest io = request(r, offset, bytes, true);
  const std::uint32_t id = pieces_.acquire({rank, bytes, env_.ctx.now(), io.storage});
  if (config_.durability == CheckpointConfig::Durability::o_dsync) {
    // O_DSYNC: the write returns once what it wrote is durable.
    env_.path.submit(io, [this, id] {
      env_.path.sync(*pieces_[id].storage, [this, id] { piece_written(id); }, SyncScope::file);
    });
    return;
  }
  env_.path.submit(io, [this, id] { piece_written(id); });
}

CheckpointWorkload::Piece CheckpointWorkload::piece_back(std::uint32_t id) {
  const Piece p = pieces_[id];
  pieces_.release(id);
  --ranks_[p.rank]->inflight;
  JobResult& res = results_[p.rank];
  res.bytes += p.bytes;
  ++res.ios;
  res.latency_ns.add(static_cast<std::uint64_t>((env_.ctx.now() - p.started).whole_ns()));
  return p;
}

void CheckpointWorkload::piece_written(std::uint32_t id) {
  const Piece p = piece_back(id);
  Rank& r = *ranks_[p.rank];
  JobResult& res = results_[p.rank];
  r.done += p.bytes;
  if (config_.overlapped && !gpu_buffers_) {
    // A buffer is free once every byte copied into it is written (cuFile writes from GPU
    // memory: no host buffers to free, and no copies to start).
    while (r.freed + config_.buffer <= r.done ||
           (r.done >= config_.size && r.freed < config_.size)) {
      r.freed += config_.buffer;
      ++r.free_buffers;
    }
    copy_next_buffer(p.rank);
  }
  const bool sync_end = config_.durability == CheckpointConfig::Durability::fsync_end ||
                        config_.durability == CheckpointConfig::Durability::fsync_each;
  if (r.done >= config_.size) {
    res.writes_done = env_.ctx.now();
    end_phase(r);
    begin_phase(r, "fsync");
    if (!sync_end) {
      end_phase(r);
      return save_done(p.rank);
    }
    r.syncing = true;
    return sync_all(p.rank, 0, true);
  }
  if (config_.durability == CheckpointConfig::Durability::fsync_each && r.unsynced >= config_.fsync_every &&
      r.inflight == 0) {
    r.syncing = true;
    return sync_all(p.rank, 0, false);
  }
  write_pump(p.rank);
}

void CheckpointWorkload::sync_all(int rank, std::uint32_t device, bool last) {
  Rank& r = *ranks_[rank];
  if (device >= r.storage.size()) {
    r.syncing = false;
    r.unsynced = 0;
    if (!last) return write_pump(rank);
    end_phase(r);
    return save_done(rank);
  }
  env_.path.sync(*r.storage[device], [this, rank, device, last] { sync_all(rank, device + 1, last); },
                 SyncScope::file);
}

void CheckpointWorkload::save_done(int rank) {
  JobResult& res = results_[rank];
  res.first_done = res.last_done = env_.ctx.now();
  --left_;
}

namespace {

class CheckpointSave final : public CheckpointWorkload {
public:
  CheckpointSave(const Params& p, WorkloadEnv& env) : CheckpointWorkload(read_checkpoint(p, true), env) {}
};
class CheckpointLoad final : public CheckpointWorkload {
public:
  CheckpointLoad(const Params& p, WorkloadEnv& env) : CheckpointWorkload(read_checkpoint(p, false), env) {}
};

}  // namespace

IOWALL_REGISTER_WORKLOAD(CheckpointSave, "checkpoint_save",
                         "each GPU's training state copied to host memory, serialized, written and made durable",
                         [](const Params& p) { read_checkpoint(p, true); });
IOWALL_REGISTER_WORKLOAD(CheckpointLoad, "checkpoint_load",
                         "each GPU's checkpoint read (page cache cold or warm), deserialized and copied to the GPU",
                         [](const Params& p) { read_checkpoint(p, false); });

}  // namespace iowall
