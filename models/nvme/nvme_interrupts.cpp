// How the host learns of a posted CQ entry: a spinning poller sees its phase tag a poll
// delay after it lands; otherwise the controller raises an MSI-X interrupt once
// coalesce_count entries are waiting or coalesce_time has passed since the first (NVMe
// base spec 2.0, Interrupt Coalescing), and the handler runs an interrupt latency after
// the 4 B MSI-X write. Queues that share a vector (fewer vectors than queues) make the
// handler check every CQ on it, a phase-tag read each, and reap them all.
#include "models/nvme/nvme_queues.hpp"

namespace iowall {

void NvmeQueues::poll_at(int queue, Time posted_at) {
  // A spinning poller notices the phase tag flip within one loop iteration.
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  if (q.irq_pending) return;
  q.irq_pending = true;
  owner_.ctx().at(posted_at + c_.poll_delay, [this, queue] { reap(queue); });
}

void NvmeQueues::signal(int queue) {
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  if (++q.unsignalled >= c_.coalesce_count) {
    interrupt(queue);
  } else if (c_.coalesce_time.is_positive() && !q.timer_armed) {
    q.timer_armed = true;
    owner_.ctx().at(owner_.now() + c_.coalesce_time, [this, queue] {
      Queue& qq = queues_[static_cast<std::size_t>(queue)];
      qq.timer_armed = false;
      if (qq.unsignalled > 0) interrupt(queue);
    });
  }
}

void NvmeQueues::interrupt(int queue) {
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  q.unsignalled = 0;
  interrupts_.add();
  send(q.routes.to_queues, kMsix, q.routes,
       [this, queue] { owner_.ctx().at(owner_.now() + handler_delay(), [this, queue] { handle_interrupt(queue); }); });
}

Time NvmeQueues::handler_delay() const {
  // The handler's own CQ is part of the interrupt latency; a shared vector adds a
  // phase-tag check of every other CQ on it.
  return c_.interrupt_latency + c_.cq_scan_cost * (queues_per_vector() - 1);
}

void NvmeQueues::handle_interrupt(int queue) {
  if (queues_per_vector() == 1) {
    reap(queue);
    return;
  }
  // The vector is shared: the handler cannot tell which CQ raised it, so it checks each.
  for (int q = queue % c_.msix_vectors; q < c_.io_queues; q += c_.msix_vectors) reap(q);
}

}  // namespace iowall
