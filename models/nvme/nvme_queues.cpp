// NvmeQueues' setup and limits, and the queue traffic every mechanism sends: messages
// over the routes to and from queue memory (models/nvme/nvme_queues.hpp).
#include "models/nvme/nvme_queues.hpp"

#include <algorithm>

namespace iowall {

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

}  // namespace iowall
