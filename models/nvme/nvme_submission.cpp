// NVMe submission: the host places a command's 64 B SQ entry (holding a CID; blocking
// when the queue has no free slot or CID), rings the SQ tail doorbell once per batch of
// entries (an MMIO register write, or a store to the shadow buffer an active controller
// polls: models/nvme/doorbell_writes.hpp), and the controller fetches the new entries
// in one DMA read and hands each to its owner to execute.
#include "models/nvme/nvme_queues.hpp"

#include <algorithm>

namespace iowall {

void NvmeQueues::submit(std::uint32_t cmd, int queue, const NvmeQueueRoutes& routes) {
  if (queue_of_.size() <= cmd) queue_of_.resize(cmd + 1);
  queue_of_[cmd] = static_cast<std::uint16_t>(queue);
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  q.routes = routes;
  q.polled = c_.polls(routes);
  if (q.held < queue_limit() && q.backlog.empty()) {
    place(q, queue, cmd);
  } else {
    blocked_.add();
    q.backlog.push_back(cmd);
  }
}

void NvmeQueues::place(Queue& q, int queue, std::uint32_t cmd) {
  ++q.held;
  q.unrung.push_back(cmd);
  const Time ready = owner_.now() + q.routes.submit_delay;
  if (q.unrung.size() == 1 || ready > q.unrung_ready) q.unrung_ready = ready;
  if (q.unrung.size() >= batch_of(q) && q.unrung_ready <= owner_.now()) {
    ring_all(queue);
  } else if (!q.flush_scheduled) {
    // Whatever the submitter placed by the end of this instant (or, with a submit
    // delay, by the time its entries are in place) goes behind one doorbell.
    q.flush_scheduled = true;
    owner_.ctx().at(q.unrung_ready, [this, queue] { flush(queue); });
  }
}

void NvmeQueues::flush(int queue) {
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  q.flush_scheduled = false;
  if (q.unrung.empty()) return;
  if (q.unrung_ready > owner_.now()) {  // an entry placed since is not ready yet
    q.flush_scheduled = true;
    owner_.ctx().at(q.unrung_ready, [this, queue] { flush(queue); });
    return;
  }
  ring_all(queue);
}

void NvmeQueues::ring_all(int queue) {
  // A doorbell covers at most a batch: entries placed while a submit delay ran may fill
  // more than one.
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  while (!q.unrung.empty()) ring(queue, std::min(batch_of(q), q.unrung.size()));
}

void NvmeQueues::ring(int queue, std::size_t count) {
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  const auto k = static_cast<std::uint32_t>(count);
  // With shadow doorbells, a controller still working on this queue polls its shadow
  // tail; one that went idle set its EventIdx, so the host rings the register as well.
  const bool controller_polls = c_.doorbells.shadow && (q.at_controller > 0 || !q.rung.empty());
  for (std::size_t i = 0; i < count; ++i) q.rung.push_back(q.unrung[i]);
  q.unrung.erase(q.unrung.begin(), q.unrung.begin() + static_cast<std::ptrdiff_t>(count));
  fetches_.add();
  Time start = owner_.now();
  if (c_.doorbells.shadow) start = doorbell_writes_.store_shadow(queue, false, start);
  if (!controller_polls) {
    doorbells_.add();
    start = doorbell_writes_.write_mmio(start);
  }
  charge_host(q.routes, owner_.now(), start);
  if (controller_polls) start = doorbell_writes_.next_poll(start);
  if (start == owner_.now()) {
    fetch(queue, k, !controller_polls, start);
  } else {
    const bool mmio = !controller_polls;
    owner_.ctx().at(start, [this, queue, k, mmio] { fetch(queue, k, mmio, owner_.now()); });
  }
}

void NvmeQueues::charge_host(const NvmeQueueRoutes& r, Time from, Time to) {
  if (r.host_cores && to > from) r.host_cores->submit(to - from, Time(0), {});
}

void NvmeQueues::fetch(int queue, std::uint32_t k, bool mmio, Time start) {
  const NvmeQueueRoutes& r = queues_[static_cast<std::size_t>(queue)].routes;
  // A doorbell register write, or the polling controller's read of the shadow tail.
  const DmaKind doorbell = mmio ? DmaKind::write : DmaKind::read;
  if (timed_ahead(r)) {
    // The doorbell, then the controller's read of the k entries (one DMA), timed
    // together: one event when the entries arrive.
    const Time rung = pass(r.from_queues, kDoorbell, r, doorbell, start);
    const Time fetched_at = pass(r.from_queues, kSqEntry * static_cast<i64>(k), r, DmaKind::read, rung);
    owner_.ctx().at(fetched_at, [this, queue, k] { fetched(queue, k); });
    return;
  }
  send(
      r.from_queues, kDoorbell, r,
      [this, queue, k] {
        const Queue& qq = queues_[static_cast<std::size_t>(queue)];
        send(qq.routes.from_queues, kSqEntry * static_cast<i64>(k), qq.routes, [this, queue, k] { fetched(queue, k); },
             DmaKind::read);
      },
      doorbell);
}

void NvmeQueues::fetched(int queue, std::size_t count) {
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  q.at_controller += static_cast<int>(count);
  const bool ordered = q.routes.cq_lookup == CqLookup::in_order;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t cmd = q.rung.front();
    q.rung.pop_front();
    if (ordered) q.in_order.fetched(cmd);
    execute_(cmd);
  }
}

}  // namespace iowall
