// What writing a doorbell costs the submitter (NVMe base spec 2.0: 3.1.2 doorbell stride
// CAP.DSTRD; 5.8 Doorbell Buffer Config, the shadow doorbells of NVMe 1.3).
//   MMIO: a posted write to the controller's register; on bare metal the store is cheap
//     (folded into the host stack's submit cost), in a VM it exits to the hypervisor that
//     emulates the controller. Registers are uncached, so adjacent queues' doorbells never
//     false-share, whatever the stride.
//   shadow (DBBUF): the new value is stored to a buffer in memory laid out like the
//     registers (queue q's SQ tail at 2q x stride, its CQ head at (2q+1) x stride). The
//     memory is cacheable: with the default 4 B stride sixteen doorbells share a 64 B line,
//     and a store to a line another queue's core wrote last first takes the line over
//     (false sharing); stores to one line serialize. A controller that is working on the
//     queue polls the shadow value; one that went idle has set its EventIdx so that the
//     next store must also ring the MMIO doorbell.
#pragma once
#include <unordered_map>

#include "sim/core/component.hpp"

namespace iowall {

struct DoorbellCosts {
  bool shadow = false;
  Bytes stride{4};
  Time mmio;           // submitter time for one MMIO doorbell write
  Time shadow_store;   // a store to a line this queue's core already owns
  Time line_transfer;  // taking the line from another core first
  Time poll_interval;  // an active controller re-reads the shadow doorbells this often
};

class DoorbellWrites {
public:
  DoorbellWrites(Component& owner, const DoorbellCosts& c);
  const DoorbellCosts& costs() const { return c_; }
  // The submitter of `queue` stores its SQ tail (or CQ head) at `at`; returns when the
  // store is done (after waiting for the line and taking it over if need be).
  Time store_shadow(int queue, bool cq_head, Time at);
  // An MMIO doorbell write issued at `at`; returns when the submitter is done with it.
  Time write_mmio(Time at);
  // The first shadow poll of an active controller at or after `t`.
  Time next_poll(Time t) const;

private:
  struct Line {
    Time free_at;
    int last_writer = -1;
  };
  DoorbellCosts c_;
  std::unordered_map<i64, Line> lines_;
  Counter mmio_writes_, shadow_stores_, line_transfers_, write_ps_;
};

}  // namespace iowall
