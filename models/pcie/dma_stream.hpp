// A DMA engine streaming fixed-size transfers over one route: `count` transfers in
// all, `in_flight` outstanding at a time, each issued as the previous one lands (the
// way a copy engine or an SSD's DMA engine keeps its descriptors busy). Several
// streams share one simulation; the fabric arbitrates among them.
#pragma once
#include "sim/core/route.hpp"

namespace iowall {

class DmaStream {
public:
  DmaStream(RouteMover& mover, const Route& route, Bytes size, i64 count, DmaKind kind)
      : mover_(mover), route_(route), size_(size), left_(count), kind_(kind) {}
  DmaStream(const DmaStream&) = delete;
  DmaStream& operator=(const DmaStream&) = delete;

  // Issues the first `in_flight` transfers; run the simulation afterwards.
  void start(int in_flight) {
    for (int i = 0; i < in_flight; ++i) issue();
  }
  Bytes bytes_done() const { return size_ * done_; }

private:
  void issue() {
    if (left_ <= 0) return;
    --left_;
    mover_.send(route_, size_, [this] {
      ++done_;
      issue();
    }, kind_);
  }

  RouteMover& mover_;
  const Route& route_;
  Bytes size_;
  i64 left_, done_ = 0;
  DmaKind kind_;
};

}  // namespace iowall
