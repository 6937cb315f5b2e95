#include "models/rdma/hca.hpp"

namespace iowall::rdma {

namespace {
// ConnectX (mlx5): a doorbell is one 8 B write to the UAR page; send WQEs and CQEs are
// 64 B; an MTT read brings one 64 B line of 8 B entries.
constexpr Bytes kDoorbell{8}, kWqe{64}, kCqe{64}, kMttLine{64};
}  // namespace

Hca::Hca(Component& owner, RouteMover& mover, const HcaConfig& config, const Route& to_hca, const Route& from_hca)
    : mover_(mover), config_(config), to_hca_(to_hca), from_hca_(from_hca),
      engine_(std::make_unique<Server>(owner, "hca")), cache_(config.mtt_cache_lines) {
  engine_->set_carries("work request");
  auto& stats = owner.ctx().stats();
  const std::string p = owner.name() + "/rdma/";
  stats.add(p + "doorbells", "writes", "send queue doorbells (posted 8 B MMIO writes)", doorbells_);
  stats.add(p + "wqe_fetches", "DMA reads", "WQE fetches from host memory (64 B per WQE)", wqe_fetches_);
  stats.add(p + "mtt_lookups", "lines", "translation lines looked up (MPT entry plus MTT lines)", lookups_);
  stats.add(p + "mtt_misses", "PCIe reads", "translation lines missed and read from host memory", misses_);
  stats.add(p + "cqes", "entries", "64 B completion entries written to host memory", cqes_);
}

Time Hca::translate(const MemoryRef& ref, Bytes bytes, Time at) {
  // Key: region in the high bits; line 0 is the region's MPT entry, then its MTT lines.
  const std::uint64_t base = static_cast<std::uint64_t>(ref.region) << 32;
  const i64 first = ref.offset / ref.page;
  const i64 last = (ref.offset + std::max(bytes, Bytes(1)) - Bytes(1)) / ref.page;
  auto look = [&](std::uint64_t key) {
    lookups_.add();
    if (cache_.access(key)) return;
    misses_.add();
    at = mover_.pass(to_hca_, kMttLine, DmaKind::read, at);  // misses resolve one after another
  };
  look(base);
  for (i64 line = first / config_.mtt_per_line; line <= last / config_.mtt_per_line; ++line)
    look(base | static_cast<std::uint64_t>(line + 1));
  return at;
}

void Hca::execute(const WorkRequest& wr, Done delivered, Done completed) {
  doorbells_.add();
  wqe_fetches_.add();
  Time t = mover_.pass(to_hca_, kDoorbell, DmaKind::write, engine_->owner().now());
  t = mover_.pass(to_hca_, kWqe * wr.wqes, DmaKind::read, t);
  if (wr.bytes.is_positive()) t = translate(wr.local, wr.bytes, t);
  if (wr.request) t = mover_.pass(*wr.request, kWqe, DmaKind::write, t);
  if (wr.remote && wr.bytes.is_positive()) t = wr.remote->translate(wr.remote_ref, wr.bytes, t);
  const std::uint32_t id = running_.acquire({wr, delivered, completed, wr.followup.is_positive() ? 2 : 1});
  mover_.call_at(t, [this, id] {
    const Running& r = running_[id];
    engine_->submit(interval(config_.message_rate) * r.wr.wqes, Time(0), {}, [this, id] { process(id); });
  });
}

void Hca::process(std::uint32_t id) {
  const WorkRequest& wr = running_[id].wr;
  if (wr.carrier)
    wr.carrier->carry(wr.bytes, [this, id] { arrived(id); });
  else
    mover_.send(*wr.data, wr.bytes, [this, id] { arrived(id); });
  // Chained behind the data on the same route: every hop is FIFO, so it lands after it.
  if (wr.followup.is_zero()) return;
  if (wr.followup_carrier)
    wr.followup_carrier->carry(wr.followup, [this, id] { arrived(id); });
  else
    mover_.send(*wr.followup_route, wr.followup, [this, id] { arrived(id); });
}

void Hca::arrived(std::uint32_t id) {
  if (--running_[id].arrivals_left > 0) return;
  const Done delivered = running_[id].delivered;
  if (delivered) delivered();
  cqes_.add();
  const Time landed = mover_.pass(from_hca_, kCqe, DmaKind::write, engine_->owner().now());
  mover_.call_at(landed, [this, id] {
    const Done completed = running_[id].completed;
    running_.release(id);
    if (completed) completed();
  });
}

Time Hca::receive_cqe(Time at) {
  cqes_.add();
  return mover_.pass(from_hca_, kCqe, DmaKind::write, at);
}

}  // namespace iowall::rdma
