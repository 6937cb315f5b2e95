// The data path of an RDMA HCA (a ConnectX-class adapter) for one work request:
//   doorbell   the CPU's posted 8 B MMIO write to the HCA's UAR page, over PCIe;
//   WQE fetch  the HCA DMA-reads the 64 B work queue entries from host memory;
//   translate  the buffers' MPT and MTT lines are looked up in the HCA's translation
//              cache; each miss is one 64 B PCIe read of host memory (the sender's
//              local buffer, and the responder's for the remote buffer);
//   process    the HCA's engine spends 1 / message_rate per WQE;
//   data       the payload moves by DMA along the data route (memory -> this HCA ->
//              wire -> the remote HCA -> memory), at the narrowest hop's rate;
//   CQE        a 64 B completion entry DMA-written to host memory.
// Control messages are timed when sent (RouteMover::pass), so only chunk fidelity is
// supported; the data moves as a chunk that every hop serves in turn.
#pragma once
#include <cstdint>
#include <memory>

#include "models/rdma/carrier.hpp"
#include "models/rdma/translation_cache.hpp"
#include "sim/core/route.hpp"
#include "sim/core/server.hpp"
#include "sim/core/slot_pool.hpp"

namespace iowall::rdma {

struct HcaConfig {
  Rate message_rate;      // WQEs the engine processes per second
  i64 mtt_cache_lines = 128;
  i64 mtt_per_line = 8;   // MTT entries one 64 B read brings
};

// Registered memory a buffer lies in: which region (its MPT entry), where in it, and
// its translation granularity (4 KiB host pages, 64 KiB GPU pages).
struct MemoryRef {
  std::uint32_t region = 0;
  Bytes offset{};
  Bytes page{4096};
};

class Hca;

struct WorkRequest {
  Bytes bytes{};                     // payload of the data DMA
  const Route* data = nullptr;       // source memory -> ... -> destination memory
  MemoryRef local{};                 // the buffer this HCA reads or writes
  Hca* remote = nullptr;             // the responder, which translates `remote_ref`
  MemoryRef remote_ref{};
  const Route* request = nullptr;    // RDMA READ: the request travelling before the data
  Bytes followup{};                  // a SEND chained behind the data in one post (0: none)
  const Route* followup_route = nullptr;
  int wqes = 1;                      // WQEs fetched for this post
  // When set, the data (and the chained SEND) travel by these instead of `data` and
  // `followup_route`.
  Carrier* carrier = nullptr;
  Carrier* followup_carrier = nullptr;
};

class Hca {
public:
  using Done = InlineFunction<void()>;
  // `to_hca`: queue memory -> HCA (doorbells, WQE fetches, MTT reads);
  // `from_hca`: HCA -> queue memory (CQEs). Stats are registered under `owner`.
  Hca(Component& owner, RouteMover& mover, const HcaConfig& config, const Route& to_hca, const Route& from_hca);
  Hca(const Hca&) = delete;
  Hca& operator=(const Hca&) = delete;

  // Runs `wr`: `delivered` when its last byte (data, then the chained SEND) is in the
  // destination memory; `completed` when this HCA's CQE has landed in queue memory.
  void execute(const WorkRequest& wr, Done delivered, Done completed);
  // A receive completion on this HCA: its CQE written to queue memory; returns when
  // it lands (for a poller to see).
  Time receive_cqe(Time at);
  // Translation lookups for `bytes` of `ref` starting at `at`: each missing line costs
  // one PCIe read round trip; returns when the last is resolved.
  Time translate(const MemoryRef& ref, Bytes bytes, Time at);

  std::uint64_t mtt_misses() const { return misses_.value(); }
  std::uint64_t mtt_lookups() const { return lookups_.value(); }

private:
  struct Running {
    WorkRequest wr;
    Done delivered, completed;
    int arrivals_left = 0;
  };
  void process(std::uint32_t id);
  void arrived(std::uint32_t id);

  RouteMover& mover_;
  HcaConfig config_;
  const Route& to_hca_;
  const Route& from_hca_;
  std::unique_ptr<Server> engine_;
  TranslationCache cache_;
  SlotPool<Running> running_;
  Counter doorbells_, wqe_fetches_, lookups_, misses_, cqes_;
};

}  // namespace iowall::rdma
