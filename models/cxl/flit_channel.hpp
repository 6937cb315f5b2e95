// One direction of a CXL link, simulated flit by flit: messages queue in a FlitPacker;
// while any wait, the link sends back-to-back flits at its line rate (one event per
// flit). A message arrives `after` its last flit has left (link latency plus the next
// device's forwarding). Flit times come from one epoch per busy period, so rounding
// to picoseconds never accumulates.
#pragma once
#include <string>
#include <vector>

#include "models/cxl/flit_packer.hpp"
#include "sim/core/component.hpp"
#include "sim/core/inline_function.hpp"
#include "sim/core/slot_pool.hpp"
#include "sim/core/stats.hpp"

namespace iowall::cxl {

class FlitChannel {
public:
  using Done = InlineFunction<void()>;
  FlitChannel(Component& owner, std::string name, FlitLayout layout, Bandwidth bandwidth);
  FlitChannel(const FlitChannel&) = delete;
  FlitChannel& operator=(const FlitChannel&) = delete;

  void send(const Message& m, Time after, Done done);
  const std::string& name() const { return name_; }
  Bandwidth bandwidth() const { return bandwidth_; }
  std::uint64_t flits() const { return flits_.value(); }
  std::uint64_t payload_bytes() const { return payload_.value(); }
  double utilization(Time start, Time now) const { return busy_.mean(start, now); }

private:
  struct Pending {
    Time after;
    Done done;
  };
  void start_flit();
  void end_flit();
  void deliver(std::uint32_t tag);

  Component& owner_;
  std::string name_;
  FlitPacker packer_;
  Bandwidth bandwidth_;
  SlotPool<Pending> pending_;
  std::vector<std::uint32_t> in_flit_;  // messages whose last part the current flit carries
  bool sending_ = false;
  Time epoch_;                 // start of the current busy period
  i64 flits_in_epoch_ = 0;
  Counter flits_, payload_;
  TimeWeighted busy_;
};

}  // namespace iowall::cxl
