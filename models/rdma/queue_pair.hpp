// A reliable-connected queue pair's send side: at most `depth` work requests posted
// and not yet completed (ibv_qp_init_attr.cap.max_send_wr). A post that finds the send
// queue full waits, in order, until a completion frees a slot: the poster is blocked,
// which is the backpressure a full send queue puts on an NVMe-oF queue.
#pragma once
#include <deque>

#include "models/rdma/hca.hpp"

namespace iowall::rdma {

class QueuePair {
public:
  using Done = Hca::Done;
  QueuePair(Hca& hca, i64 depth) : hca_(hca), depth_(depth) {}
  QueuePair(const QueuePair&) = delete;
  QueuePair& operator=(const QueuePair&) = delete;

  // Posts `wr` (or queues it behind a full send queue): `delivered` when its data is
  // in the destination memory, `completed` when its CQE has landed.
  void post(const WorkRequest& wr, Done delivered, Done completed = {});

  i64 depth() const { return depth_; }
  i64 outstanding() const { return outstanding_; }
  i64 max_outstanding() const { return max_outstanding_; }
  std::uint64_t blocked() const { return blocked_; }
  std::size_t waiting() const { return waiting_.size(); }

private:
  struct Post {
    WorkRequest wr;
    Done delivered, completed;
  };
  void start(const Post& p);
  void slot_freed();

  Hca& hca_;
  i64 depth_;
  i64 outstanding_ = 0, max_outstanding_ = 0;
  std::uint64_t blocked_ = 0;
  std::deque<Post> waiting_;
  SlotPool<Done> completions_;
};

}  // namespace iowall::rdma
