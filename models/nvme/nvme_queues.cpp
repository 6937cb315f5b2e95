#include "models/nvme/nvme_queues.hpp"

#include <algorithm>

namespace iowall {

namespace {
// NVMe base spec 2.0: a submission queue entry is 64 B, a completion queue entry 16 B,
// a doorbell register 4 B (and an MSI-X message is one 4 B memory write).
constexpr Bytes kSqEntry{64}, kCqEntry{16}, kDoorbell{4}, kMsix{4};
}  // namespace

NvmeQueues::NvmeQueues(Component& owner, const NvmeQueueConfig& c, Execute execute, Reaped reaped)
    : owner_(owner), c_(c), execute_(execute), reaped_(reaped), queues_(static_cast<std::size_t>(c.io_queues)),
      completed_(static_cast<std::size_t>(c.io_queues)), doorbell_writes_(owner, c.doorbells) {
  auto& stats = owner.ctx().stats();
  const std::string p = owner.name() + "/nvme/";
  stats.add(p + "doorbells", "writes", "SQ tail and CQ head doorbell writes (posted MMIO)", doorbells_);
  stats.add(p + "sq_fetches", "DMA reads", "SQ entry fetches (one per doorbell, k x 64 B)", fetches_);
  stats.add(p + "cq_entries", "entries", "16 B CQ entries posted", cq_entries_);
  stats.add(p + "interrupts", "interrupts", "MSI-X interrupts raised", interrupts_);
  stats.add(p + "cq_entry_reads", "reads", "CQ entries GPU threads read looking for their own (scan lookup)", cq_reads_);
  stats.add(p + "blocked_submits", "commands", "submissions that waited for an SQ slot or a CID", blocked_);
}

i64 NvmeQueues::queues_per_vector() const {
  if (c_.msix_vectors <= 0 || c_.msix_vectors >= c_.io_queues) return 1;
  return (c_.io_queues + c_.msix_vectors - 1) / c_.msix_vectors;
}

i64 NvmeQueues::queue_limit() const {
  const i64 cids = c_.cid_bits >= 62 ? INT64_MAX : (i64{1} << c_.cid_bits);
  return std::min(c_.queue_entries - 1, cids);
}

std::size_t NvmeQueues::outstanding() const {
  std::size_t n = 0;
  for (const Queue& q : queues_) n += static_cast<std::size_t>(q.held) + q.backlog.size();
  return n;
}

void NvmeQueues::send(const Route* route, Bytes bytes, const NvmeQueueRoutes& r, InlineFunction<void()> done,
                      DmaKind kind) {
  if (route && r.mover)
    r.mover->signal(*route, bytes, done, kind);
  else if (done)
    done();  // queue memory not modelled: the traffic is free
}

bool NvmeQueues::timed_ahead(const NvmeQueueRoutes& r) const {
  return r.mover && !r.mover->signals_are_packets();
}

Time NvmeQueues::pass(const Route* route, Bytes bytes, const NvmeQueueRoutes& r, DmaKind kind, Time depart) const {
  return route ? r.mover->pass(*route, bytes, kind, depart) : depart;
}

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
    if (ordered) q.in_order.push_back(cmd);
    execute_(cmd);
  }
}

void NvmeQueues::complete(std::uint32_t cmd) {
  const int queue = queue_of_[cmd];
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  --q.at_controller;
  if (q.routes.cq_lookup != CqLookup::in_order) {
    post(cmd, owner_.now());
    return;
  }
  // In submission order: this entry, and any finished behind it, once all before are out.
  if (finished_.size() <= cmd) finished_.resize(cmd + 1, false);
  finished_[cmd] = true;
  while (!q.in_order.empty() && finished_[q.in_order.front()]) {
    const std::uint32_t next = q.in_order.front();
    q.in_order.pop_front();
    finished_[next] = false;
    post(next, owner_.now());
  }
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
  if (q.polled && q.routes.cq_lookup == CqLookup::scan) {
    scan_for(queue);
    return;
  }
  if (q.polled) {
    poll_at(queue, owner_.now());
    return;
  }
  if (++q.unsignalled >= c_.coalesce_count) {
    interrupt(queue);
  } else if (c_.coalesce_time.ps > 0 && !q.timer_armed) {
    q.timer_armed = true;
    owner_.ctx().at(owner_.now() + c_.coalesce_time, [this, queue] {
      Queue& qq = queues_[static_cast<std::size_t>(queue)];
      qq.timer_armed = false;
      if (qq.unsignalled > 0) interrupt(queue);
    });
  }
}

void NvmeQueues::poll_at(int queue, Time posted_at) {
  // A spinning poller notices the phase tag flip within one loop iteration.
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  if (q.irq_pending) return;
  q.irq_pending = true;
  owner_.ctx().at(posted_at + c_.poll_delay, [this, queue] { reap(queue); });
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
  // The head moves only past a prefix of found entries, so one slow lookup keeps every
  // entry behind it in the window that later lookups read through.
  Queue& q = queues_[static_cast<std::size_t>(queue)];
  const std::uint32_t cmd = completed_[static_cast<std::size_t>(queue)].back().cmd;
  completed_[static_cast<std::size_t>(queue)].pop_back();
  while (!q.window.empty() && q.window.front() <= owner_.now()) q.window.pop_front();
  const Time found =
      owner_.now() + c_.poll_delay + q.routes.cq_check_cost * static_cast<i64>(q.window.size() + 1);
  q.window.push_back(found);
  cq_reads_.add(q.window.size());
  owner_.ctx().at(found, [this, queue, cmd] {
    release(queue, 1);
    reaped_(cmd);
  });
}

}  // namespace iowall
