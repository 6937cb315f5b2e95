#include "models/cxl/flit_channel.hpp"

namespace iowall::cxl {

FlitChannel::FlitChannel(Component& owner, std::string name, FlitLayout layout, Bandwidth bandwidth)
    : owner_(owner), name_(std::move(name)), packer_(layout), bandwidth_(bandwidth) {
  auto& stats = owner_.ctx().stats();
  const std::string prefix = owner_.name() + "/" + name_;
  stats.add(prefix + "/flits", "flits", "flits sent", flits_);
  stats.add(prefix + "/payload", "B", "data bytes carried in data slots", payload_);
  stats.add(prefix + "/busy", "units", "time-weighted fraction of time sending flits", busy_, 1);
}

void FlitChannel::send(const Message& m, Time after, Done done) {
  packer_.push(m, pending_.acquire({after, done}));
  payload_.add(static_cast<std::uint64_t>(m.data_slots * kSlotBytes));
  if (sending_) return;
  sending_ = true;
  busy_.set(owner_.now(), 1);
  epoch_ = owner_.now();
  flits_in_epoch_ = 0;
  start_flit();
}

void FlitChannel::start_flit() {
  in_flit_.clear();
  packer_.next_flit(in_flit_);
  flits_.add();
  ++flits_in_epoch_;
  const Time end = epoch_ + transfer_time(Bytes(flits_in_epoch_ * packer_.layout().flit_bytes), bandwidth_);
  owner_.ctx().at(end, [this] { end_flit(); });
}

void FlitChannel::deliver(std::uint32_t tag) {
  const Done done = pending_[tag].done;
  pending_.release(tag);
  done();
}

void FlitChannel::end_flit() {
  for (const std::uint32_t tag : in_flit_) {
    if (pending_[tag].after.is_zero())
      deliver(tag);
    else
      owner_.ctx().in(pending_[tag].after, [this, tag] { deliver(tag); });
  }
  if (!packer_.empty()) {
    start_flit();
    return;
  }
  sending_ = false;
  busy_.set(owner_.now(), 0);
}

}  // namespace iowall::cxl
