// The host-visible half of an NVMe controller: I/O queue pairs in host (or GPU)
// memory and the traffic that keeps them moving (NVMe base spec 2.0, section 3.3), as
// the host driver set them up (models/nvme/host_driver.hpp). One mechanism per file:
//   submission (nvme_submission.cpp): the host writes a 64 B SQ entry and holds a CID;
//     with no free SQ slot or CID the submitter blocks (a FIFO backlog, bounded by the
//     workload); one doorbell per batch of entries (MMIO or shadow, doorbell_writes.hpp),
//     then the controller DMA-reads the new entries (k x 64 B) and the owner executes them.
//   completion (nvme_completion.cpp): a 16 B CQ entry DMA-written to queue memory; the
//     host reaps the entries, frees their CIDs and writes the CQ head doorbell once per reap.
//   notification (nvme_interrupts.cpp): how the host learns of an entry: a poller, or an
//     MSI-X interrupt coalesced by count and time, on a vector queues may share.
//   lookup (cq_lookup.hpp): how a polling GPU thread finds its own entry (scan, in order).
//   queue traffic (nvme_queues.cpp): messages over the routes to and from queue memory,
//     timed when sent at chunk fidelity, as packets at tlp fidelity.
#pragma once
#include <algorithm>
#include <deque>
#include <vector>

#include "models/nvme/cq_lookup.hpp"
#include "models/nvme/doorbell_writes.hpp"
#include "sim/core/block_storage.hpp"
#include "sim/core/component.hpp"
#include "sim/core/inline_function.hpp"
#include "sim/core/ring_queue.hpp"
#include "sim/core/route.hpp"
#include "sim/core/server.hpp"

namespace iowall {

// Where the queues live (routes to and from queue memory, who polls) and how a polling
// host finds its completion are block storage's queue hints (sim/core/block_storage.hpp).
using NvmeQueueRoutes = QueueRoutes;

// The queues as the host driver sets them up (models/nvme/host_driver.hpp).
struct NvmeQueueConfig {
  int io_queues = 1;
  i64 queue_entries = 1024;  // SQ and CQ size; one slot stays empty (full = tail + 1 == head)
  int cid_bits = 16;
  int doorbell_batch = 1;  // entries written before the host rings (io_uring submit batch, warp of 32)
  bool poll_every_queue = false;  // a polled driver; else only the queues whose submitter polls
  Time poll_delay;         // CQ entry in memory -> the poller sees it
  Time interrupt_latency;  // MSI-X write -> the handler runs
  int coalesce_count = 1;  // aggregation threshold (Set Features, Interrupt Coalescing)
  Time coalesce_time;      // aggregation time; zero: none
  int msix_vectors = 0;    // interrupt vectors; queues share them round-robin (0: one per queue)
  Time cq_scan_cost;       // the handler checking one CQ's phase tag
  DoorbellCosts doorbells;  // MMIO or shadow (DBBUF) doorbell writes
  // Whether the host polls the completions of a queue on `r` (no interrupt): the one place
  // polling is decided, from the driver's kind and the submitter's request.
  bool polls(const QueueRoutes& r) const { return poll_every_queue || r.submitter_polls; }
};

class NvmeQueues {
public:
  using Execute = InlineFunction<void(std::uint32_t cmd)>;
  using Reaped = InlineFunction<void(std::uint32_t cmd)>;
  NvmeQueues(Component& owner, const NvmeQueueConfig& c, Execute execute, Reaped reaped);

  // The host queues command `cmd` (an index the owner chose) on `queue`.
  void submit(std::uint32_t cmd, int queue, const NvmeQueueRoutes& routes);
  // The controller finished `cmd`: post its CQ entry and notify the host.
  void complete(std::uint32_t cmd);
  // The same, known ahead: the command's data arrives at `at` (not before now). Where
  // the CQ entry is timed when sent, it is timed from `at` with no event of its own.
  void complete_at(std::uint32_t cmd, Time at);
  // Outstanding commands a queue can hold: SQ slots (entries - 1) or CIDs, the fewer.
  i64 queue_limit() const;
  i64 queues_per_vector() const;  // CQs one interrupt vector serves
  std::size_t outstanding() const;
  int queue_of(std::uint32_t cmd) const { return queue_of_[cmd]; }
  const NvmeQueueConfig& config() const { return c_; }

private:
  struct Queue {
    // Submission.
    i64 held = 0;                          // CIDs held: submitted and not yet reaped
    std::deque<std::uint32_t> backlog;     // blocked submitters
    std::vector<std::uint32_t> unrung;     // in the SQ, doorbell not yet written
    std::deque<std::uint32_t> rung;        // doorbell written, not yet fetched
    bool flush_scheduled = false;
    Time unrung_ready;                     // when the last of `unrung` is in place
    int at_controller = 0;                 // fetched, not yet completed
    // Notification.
    bool polled = false;                   // the host polls this CQ (NvmeQueueConfig::polls)
    int unsignalled = 0;                   // posted since the last interrupt
    bool timer_armed = false, irq_pending = false;
    // Lookup (polled GPU queues).
    InOrderCq in_order;
    CqScan scan;
    NvmeQueueRoutes routes;
  };

  // Submission (nvme_submission.cpp).
  void place(Queue& q, int queue, std::uint32_t cmd);
  void flush(int queue);  // rings for what was placed by now, or waits for its entries
  void ring(int queue, std::size_t count);  // one doorbell for the first `count` unrung entries
  void ring_all(int queue);                 // rings for every unrung entry, a batch per doorbell
  // Commands placed before one doorbell: the queue's own (a warp), else the controller's.
  std::size_t batch_of(const Queue& q) const {
    return static_cast<std::size_t>(std::max(q.routes.doorbell_batch > 0 ? q.routes.doorbell_batch : c_.doorbell_batch, 1));
  }
  // The doorbell, then the controller's read of `k` new entries (one DMA), from `start`.
  void fetch(int queue, std::uint32_t k, bool mmio, Time start);
  void fetched(int queue, std::size_t count);
  // Counts the submitter's time on a doorbell write, from `from` to `to`, as CPU busy.
  void charge_host(const NvmeQueueRoutes& r, Time from, Time to);

  // Completion (nvme_completion.cpp).
  // Posts the CQ entry of `cmd` (complete() decides when).
  void post(std::uint32_t cmd, Time depart);
  // Whether a CQ entry on `q` is timed when sent (no event until it is reaped).
  bool posts_ahead(const Queue& q) const;
  void posted(int queue);  // an entry is in memory: the host learns of it (or looks it up)
  void reap(int queue);
  // Frees `n` reaped entries' CIDs (one CQ head doorbell) and admits blocked submitters.
  void release(int queue, std::size_t n);
  // A scan lookup for the entry just posted on `queue`.
  void scan_for(int queue);

  // Notification (nvme_interrupts.cpp).
  void poll_at(int queue, Time posted_at);  // the poller reaps a poll delay after `posted_at`
  void signal(int queue);  // an entry for the interrupt: coalesced by count and time
  void interrupt(int queue);
  // An interrupt's handler: it scans every CQ on the queue's vector and reaps them all.
  void handle_interrupt(int queue);
  // From the MSI-X write to the handler having scanned its vector's CQs.
  Time handler_delay() const;

  // NVMe base spec 2.0: a submission queue entry is 64 B, a completion queue entry 16 B,
  // a doorbell register 4 B (and an MSI-X message is one 4 B memory write).
  static constexpr Bytes kSqEntry{64}, kCqEntry{16}, kDoorbell{4}, kMsix{4};

  // Queue traffic (nvme_queues.cpp).
  // At chunk fidelity a chain of queue messages is timed when it starts (one event);
  // at tlp fidelity every message travels as packets.
  bool timed_ahead(const NvmeQueueRoutes& r) const;
  Time pass(const Route* route, Bytes bytes, const NvmeQueueRoutes& r, DmaKind kind, Time depart) const;
  void send(const Route* route, Bytes bytes, const NvmeQueueRoutes& r, InlineFunction<void()> done,
            DmaKind kind = DmaKind::write);

  Component& owner_;
  NvmeQueueConfig c_;
  Execute execute_;
  Reaped reaped_;
  std::vector<Queue> queues_;
  std::vector<std::uint16_t> queue_of_;  // by command index
  std::vector<bool> finished_;           // by command index: done, held back (in_order)
  struct Posted {
    std::uint32_t cmd;
    Time at;  // when the CQ entry lands in memory
  };
  std::vector<RingQueue<Posted>> completed_;  // per queue: CQ entries posted, in order
  DoorbellWrites doorbell_writes_;
  Counter doorbells_, fetches_, cq_entries_, interrupts_, blocked_, cq_reads_;
};

}  // namespace iowall
