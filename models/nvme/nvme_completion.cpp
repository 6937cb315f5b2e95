// NVMe completion: the controller DMA-writes a command's 16 B CQ entry into queue
// memory (at chunk fidelity timed when sent, with no event until it is reaped); the host
// learns of it (nvme_interrupts.cpp) or a GPU thread looks it up (cq_lookup.hpp), reaps
// the entries that are in memory, frees their CIDs with one CQ head doorbell (or a
// shadow store) and lets blocked submitters in before the completions run.
#include "models/nvme/nvme_queues.hpp"

namespace iowall {

void NvmeQueues::complete(std::uint32_t cmd) {
  const int queue = queue_of_[cmd];
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  --q.at_controller;
  if (q.routes.cq_lookup != CqLookup::in_order) {
    post(cmd, owner_.now());
    return;
  }
  // In submission order: this entry, and any finished behind it, once all before are out.
  q.in_order.finish(cmd, finished_, [this](std::uint32_t next) { post(next, owner_.now()); });
}

void NvmeQueues::complete_at(std::uint32_t cmd, Time at) {
  Queue& q = queues_[static_cast<std::size_t>(queue_of_[cmd])];
  if (at == owner_.now() || !posts_ahead(q) || q.routes.cq_lookup == CqLookup::in_order) {
    owner_.ctx().at(at, [this, cmd] { complete(cmd); });
    return;
  }
  --q.at_controller;
  post(cmd, at);
}

bool NvmeQueues::posts_ahead(const Queue& q) const {
  if (!timed_ahead(q.routes)) return false;
  if (q.polled) return q.routes.cq_lookup != CqLookup::scan;
  return c_.coalesce_count == 1;
}

void NvmeQueues::post(std::uint32_t cmd, Time depart) {
  const int queue = queue_of_[cmd];
  const Queue& q = queues_[static_cast<std::size_t>(queue)];
  const NvmeQueueRoutes& r = q.routes;
  if (posts_ahead(q)) {
    // Timed when sent: the entry is in memory from `posted_at`.
    const Time posted_at = pass(r.to_queues, kCqEntry, r, DmaKind::write, depart);
    cq_entries_.add();
    completed_[static_cast<std::size_t>(queue)].push_back({cmd, posted_at});
    if (q.polled) {
      // A poller reaps it, with whatever else has arrived by then, a poll delay later.
      poll_at(queue, posted_at);
      return;
    }
    // Every entry raises its own interrupt: the MSI-X write behind the entry (in order,
    // both posted) and the handler's start are timed with it, one event. A handler that
    // runs sooner for another entry reaps this one too, as a real one reaps everything
    // the phase tags show.
    const Time handler = pass(r.to_queues, kMsix, r, DmaKind::write, posted_at) + handler_delay();
    owner_.ctx().at(handler, [this, queue] {
      interrupts_.add();
      handle_interrupt(queue);
    });
    return;
  }
  send(r.to_queues, kCqEntry, r, [this, queue, cmd] {
    cq_entries_.add();
    completed_[static_cast<std::size_t>(queue)].push_back({cmd, owner_.now()});
    posted(queue);
  });
}

void NvmeQueues::posted(int queue) {
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  if (!q.polled) {
    signal(queue);
  } else if (q.routes.cq_lookup == CqLookup::scan) {
    scan_for(queue);
  } else {
    poll_at(queue, owner_.now());
  }
}

void NvmeQueues::reap(int queue) {
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  q.irq_pending = false;
  auto& done = completed_[static_cast<std::size_t>(queue)];
  std::size_t n = 0;
  while (n < done.size() && done[n].at <= owner_.now()) ++n;
  // A poller comes back for entries posted ahead of time that are not in memory yet.
  if (n < done.size() && q.polled) poll_at(queue, done[n].at);
  if (n == 0) return;  // an earlier handler reaped this interrupt's entry
  release(queue, n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t cmd = done.front().cmd;
    done.pop_front();
    reaped_(cmd);
  }
}

void NvmeQueues::release(int queue, std::size_t n) {
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  q.held -= static_cast<i64>(n);
  // One CQ head doorbell releases every entry reaped; nobody waits for it. A shadow CQ
  // head is a store the controller reads when it needs CQ space.
  if (c_.doorbells.shadow) {
    charge_host(q.routes, owner_.now(), doorbell_writes_.store_shadow(queue, true, owner_.now()));
  } else {
    doorbells_.add();
    charge_host(q.routes, owner_.now(), doorbell_writes_.write_mmio(owner_.now()));
    send(q.routes.from_queues, kDoorbell, q.routes, {});
  }
  // Freed CIDs let blocked submitters in, before the completions run.
  while (!q.backlog.empty() && q.held < queue_limit()) {
    const std::uint32_t cmd = q.backlog.front();
    q.backlog.pop_front();
    place(q, queue, cmd);
  }
}

void NvmeQueues::scan_for(int queue) {
  // The entry just posted: its thread reads CQ entries from the head up to its own.
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  const std::uint32_t cmd = completed_[static_cast<std::size_t>(queue)].back().cmd;
  completed_[static_cast<std::size_t>(queue)].pop_back();
  std::size_t read = 0;
  const Time found = q.scan.find(owner_.now(), c_.poll_delay, q.routes.cq_check_cost, read);
  cq_reads_.add(read);
  owner_.ctx().at(found, [this, queue, cmd] {
    release(queue, 1);
    reaped_(cmd);
  });
}

}  // namespace iowall
